// Catch2 v2's main, in a file of its own so the heavy header is compiled once.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
