// tests/unit/catch_main.cpp — the Catch2 main of mxcert_unit_tests and mxcert_solver_tests
// (compiled once, as the object library mxcert_catch_main, for both; the test files
// themselves rebuild quickly).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
