// tests/unit/catch_main.cpp — the Catch2 main of mxcert_unit_tests (compiled once, so that the
// test files themselves rebuild quickly).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
