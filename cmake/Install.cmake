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

# Service definitions: a systemd user unit and a launchd agent. Both name the
# installed binary, and `cmake --install --prefix DIR` picks the prefix only at
# install time, so they are configured then, not when the build is configured.
# (file(INSTALL) adds $DESTDIR, as install(FILES) would.)
foreach(service
    "systemd/engram.service.in|engram.service|${CMAKE_INSTALL_LIBDIR}/systemd/user"
    "launchd/io.engram.daemon.plist.in|io.engram.daemon.plist|${CMAKE_INSTALL_DATADIR}/engram/launchd")
  string(REPLACE "|" ";" parts "${service}")
  list(GET parts 0 template)
  list(GET parts 1 name)
  list(GET parts 2 destination)
  install(CODE "
    if(IS_ABSOLUTE \"${CMAKE_INSTALL_BINDIR}\")
      set(CMAKE_INSTALL_FULL_BINDIR \"${CMAKE_INSTALL_BINDIR}\")
    else()
      set(CMAKE_INSTALL_FULL_BINDIR \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
    endif()
    # What `engram service install` fills in per user: here the defaults, the
    # default store and launchd logs in /tmp (a per-user install logs to ~/Library/Logs).
    set(ENGRAM_GLOBAL_ARGS \"\")
    set(ENGRAM_PLIST_ARGS \"\")
    set(ENGRAM_WRITE_PATHS \"-%h/.local/share/engram\")
    set(ENGRAM_LOG_DIR \"/tmp\")
    # One staging folder per destination, so installs to two prefixes at once do not mix.
    string(MD5 staging \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
    set(staged \"${PROJECT_BINARY_DIR}/install-time/\${staging}/${name}\")
    configure_file(\"${PROJECT_SOURCE_DIR}/${template}\" \"\${staged}\" @ONLY)
    file(INSTALL \"\${staged}\" DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${destination}\")
  ")
endforeach()
