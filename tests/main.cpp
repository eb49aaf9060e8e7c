// The Catch2 entry point shared by the unit and integration test binaries.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
