# `make package`: a Debian package (CPack) of exactly what `cmake --install`
# puts in place (cmake/Install.cmake, cmake/Docs.cmake, the rules), under
# /usr: the binary, the rules, the SDK, the man pages, the completions and
# the service files.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME engram)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
  "engram keeps an AI agent's memory folder healthy: it watches the folder, guards, decays, "
  "merges and indexes its memory files with rules that are plugins, and commits every change "
  "to the store's own git repository.")
set(CPACK_PACKAGE_CONTACT "engram maintainers <engram@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The shared libraries the binary and the rules link, found by dpkg-shlibdeps;
# git itself for what engram hands to it (repack, fetch, push).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS git)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
# Folders 0755 whatever the packager's umask: the plugin host refuses a rule
# folder that others can write to.
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
  GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
# Installed with DESTDIR under the final prefix, not into the staging folder
# as the prefix: the service files name the binary by its installed path.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# CPack builds the `preinstall` target first, which would build the tests of
# a release tree too; `make package` builds what is packaged (engram-product).
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
include(CPack)
