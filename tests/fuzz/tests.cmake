# libFuzzer smoke runs: scripts/fuzz builds the harnesses with clang-14 (ASan + UBSan) in a folder
# of this build tree, then each target runs 20 s from its seeds and every saved regression
# input (tests/fuzz/regressions/). A crash fails the test. Included by tests/CMakeLists.txt.
set(IMQUIZ_FUZZ_BUILD_DIR ${CMAKE_BINARY_DIR}/fuzz)
add_test(NAME "fuzz: build the harnesses"
  COMMAND ${CMAKE_COMMAND} -E env FUZZ_BUILD_DIR=${IMQUIZ_FUZZ_BUILD_DIR}
          bash ${CMAKE_SOURCE_DIR}/scripts/fuzz build
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties("fuzz: build the harnesses" PROPERTIES FIXTURES_SETUP fuzzers TIMEOUT 1200)
foreach(target bank progress import)
  add_test(NAME "fuzz: ${target} (20 s)"
    COMMAND ${CMAKE_COMMAND} -E env FUZZ_BUILD_DIR=${IMQUIZ_FUZZ_BUILD_DIR}
            bash ${CMAKE_SOURCE_DIR}/scripts/fuzz run ${target} 20
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("fuzz: ${target} (20 s)" PROPERTIES FIXTURES_REQUIRED fuzzers TIMEOUT 300)
endforeach()
