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

# Service definitions: a systemd user unit and a launchd agent.
configure_file(systemd/engram.service.in ${PROJECT_BINARY_DIR}/engram.service @ONLY)
configure_file(launchd/io.engram.daemon.plist.in ${PROJECT_BINARY_DIR}/io.engram.daemon.plist @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/engram.service DESTINATION ${CMAKE_INSTALL_LIBDIR}/systemd/user)
install(FILES ${PROJECT_BINARY_DIR}/io.engram.daemon.plist
  DESTINATION ${CMAKE_INSTALL_DATADIR}/engram/launchd)
