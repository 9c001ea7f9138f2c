# The bad-bank corpus through quizc: native, and the WebAssembly build under node (measured:
# CPU time per case within 2 s, peak memory reported). Included by tests/CMakeLists.txt.
add_test(NAME "bad-banks: quizc (native)"
  COMMAND node ${CMAKE_CURRENT_LIST_DIR}/run-corpus.mjs --quizc $<TARGET_FILE:quizc>
  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
set_tests_properties("bad-banks: quizc (native)" PROPERTIES TIMEOUT 600)

# The web preset's build folder, where quizc-wasm.js is (scripts/test passes build/web).
set(IMQUIZ_WEB_BUILD_DIR "" CACHE PATH "web preset build folder, for the bad-bank corpus under node")
if(IMQUIZ_WEB_BUILD_DIR)
  add_test(NAME "bad-banks: quizc-wasm under node"
    COMMAND node ${CMAKE_CURRENT_LIST_DIR}/run-corpus.mjs
            --quizc ${IMQUIZ_WEB_BUILD_DIR}/src/tools/quizc-wasm.js --budget-ms 4000 --max-rss-mb 700
            --json ${CMAKE_BINARY_DIR}/bad-banks-wasm.json
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  set_tests_properties("bad-banks: quizc-wasm under node" PROPERTIES TIMEOUT 900)
endif()
