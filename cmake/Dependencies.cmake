# Every third-party library engram uses, all from Debian's packages, gathered
# into one interface target, engram::deps.
find_package(PkgConfig REQUIRED)
find_package(Boost 1.73 REQUIRED)
find_package(Threads REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(tomlplusplus 3 REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)
find_package(ICU REQUIRED COMPONENTS uc i18n)
# SHA-1 (base/sha1.cpp), which libgit2 does not export: the name of a store's
# history kept outside it, and content hashes.
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
pkg_check_modules(LIBGIT2 REQUIRED IMPORTED_TARGET libgit2)
# md4c through pkg-config: Debian's md4cConfig.cmake also demands libmd4c-html,
# which libmd4c-dev does not install.
pkg_check_modules(MD4C REQUIRED IMPORTED_TARGET md4c)
# sd_notify for `Type=notify` services; only Linux has systemd, and the daemon
# runs without it elsewhere (launchd needs no notifications).
# The portable build goes without it, as a build elsewhere would: the daemon
# then speaks the notification protocol itself when NOTIFY_SOCKET is set.
if(ENGRAM_PORTABLE)
  set(SYSTEMD_FOUND FALSE)
else()
  pkg_check_modules(SYSTEMD REQUIRED IMPORTED_TARGET libsystemd)
endif()

# mimalloc replaces malloc in the engram executable (not in sanitizer builds,
# whose allocator must see every block). A consolidation is malloc-bound: a
# 10,000-file store's model is tens of thousands of small blocks made and
# freed on every cycle, and glibc's malloc sorted the freed ones on the next
# run's first allocation (5 ms of a one-file change's way to its commit).
if(NOT ENGRAM_SANITIZE)
  find_package(mimalloc 2 REQUIRED)
endif()

find_path(STEMMER_INCLUDE_DIR libstemmer.h REQUIRED)
find_library(STEMMER_LIBRARY NAMES stemmer REQUIRED)

add_library(engram_deps INTERFACE)
add_library(engram::deps ALIAS engram_deps)
target_include_directories(engram_deps INTERFACE ${STEMMER_INCLUDE_DIR})
target_link_libraries(engram_deps INTERFACE
  fmt::fmt spdlog::spdlog nlohmann_json::nlohmann_json tomlplusplus::tomlplusplus
  yaml-cpp CLI11::CLI11 ICU::uc ICU::i18n PkgConfig::MD4C PkgConfig::LIBGIT2 OpenSSL::Crypto
  ${STEMMER_LIBRARY}
  Threads::Threads ${CMAKE_DL_LIBS})
if(SYSTEMD_FOUND)
  target_link_libraries(engram_deps INTERFACE PkgConfig::SYSTEMD)
  target_compile_definitions(engram_deps INTERFACE ENGRAM_HAVE_SYSTEMD=1)
endif()
