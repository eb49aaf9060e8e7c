# What `make install PREFIX=DIR` puts in place: the executable, the plugin SDK
# headers with a CMake package (find_package(engram)), and the service files.
install(TARGETS engram RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/engram DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The SDK is header-only for plugins: engram::sdk carries the include path.
install(TARGETS engram_sdk EXPORT engramTargets)

set(ENGRAM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/engram)
install(EXPORT engramTargets NAMESPACE engram:: DESTINATION ${ENGRAM_CMAKE_DIR})
include(CMakePackageConfigHelpers)
configure_package_config_file(cmake/engramConfig.cmake.in
  ${PROJECT_BINARY_DIR}/engramConfig.cmake INSTALL_DESTINATION ${ENGRAM_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/engramConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/engramConfig.cmake
  ${PROJECT_BINARY_DIR}/engramConfigVersion.cmake DESTINATION ${ENGRAM_CMAKE_DIR})

# Service definitions: a systemd user unit and a launchd agent, rendered by the
# built engram itself (`engram service render`), so the packaged files and the
# ones `engram service install` writes come from one template and one function.
# They name the installed binary, and `cmake --install --prefix DIR` picks the
# prefix only at install time, so they are rendered then.

# Where systemd's user manager looks for units of a system prefix; a packager
# may name another folder (relative to the prefix, or absolute).
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_get_variable(ENGRAM_SYSTEMD_PREFIX systemd prefix)
  pkg_get_variable(ENGRAM_SYSTEMD_USER_UNIT_DIR_DEFAULT systemd systemduserunitdir)
endif()
set(ENGRAM_SYSTEMD_USER_UNIT_DIR "" CACHE STRING
  "Where `cmake --install` puts the systemd user unit (empty: where systemd looks for the prefix)")

install(CODE "
  if(IS_ABSOLUTE \"${CMAKE_INSTALL_BINDIR}\")
    set(bindir \"${CMAKE_INSTALL_BINDIR}\")
  else()
    set(bindir \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
  endif()
  # The folder systemd's user manager searches for this prefix: the packager's
  # choice; systemd's own for its prefix (/usr); the user's data folder for a
  # prefix in the home folder (~/.local: ~/.local/share/systemd/user, which
  # `engram service install`'s ~/.config/systemd/user overrides); else the
  # prefix's lib/systemd/user (searched for /usr/local).
  set(home \"\$ENV{HOME}\")
  string(FIND \"\${CMAKE_INSTALL_PREFIX}/\" \"\${home}/\" in_home)
  if(NOT \"${ENGRAM_SYSTEMD_USER_UNIT_DIR}\" STREQUAL \"\")
    set(units \"${ENGRAM_SYSTEMD_USER_UNIT_DIR}\")
  elseif(\"\${CMAKE_INSTALL_PREFIX}\" STREQUAL \"${ENGRAM_SYSTEMD_PREFIX}\"
         AND NOT \"${ENGRAM_SYSTEMD_USER_UNIT_DIR_DEFAULT}\" STREQUAL \"\")
    set(units \"${ENGRAM_SYSTEMD_USER_UNIT_DIR_DEFAULT}\")
  elseif(NOT home STREQUAL \"\" AND NOT home STREQUAL \"/\" AND in_home EQUAL 0)
    set(units \"\$ENV{XDG_DATA_HOME}\")
    if(units STREQUAL \"\")
      set(units \"\${home}/.local/share\")
    endif()
    set(units \"\${units}/systemd/user\")
  else()
    set(units \"${CMAKE_INSTALL_LIBDIR}/systemd/user\")
  endif()
  if(NOT IS_ABSOLUTE \"\${units}\")
    set(units \"\${CMAKE_INSTALL_PREFIX}/\${units}\")
  endif()
  # One staging folder per destination, so installs to two prefixes at once do not mix.
  string(MD5 staging \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
  set(staged \"${PROJECT_BINARY_DIR}/install-time/\${staging}\")
  file(MAKE_DIRECTORY \"\${staged}\")
  foreach(service \"systemd|engram.service|\${units}\"
                  \"launchd|io.engram.daemon.plist|\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/engram/launchd\")
    string(REPLACE \"|\" \";\" parts \"\${service}\")
    list(GET parts 0 manager)
    list(GET parts 1 name)
    list(GET parts 2 destination)
    execute_process(
      COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} \"$<TARGET_FILE:engram>\" service render
              --\${manager} --binary \"\${bindir}/engram\"
      OUTPUT_FILE \"\${staged}/\${name}\" ERROR_VARIABLE error RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR \"engram service render --\${manager} failed (\${status}): \${error}\")
    endif()
    # file(INSTALL) adds \$DESTDIR, as install(FILES) would.
    file(INSTALL \"\${staged}/\${name}\" DESTINATION \"\${destination}\")
  endforeach()
")
