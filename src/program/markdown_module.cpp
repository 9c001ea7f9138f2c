// The web's Markdown module, imquiz-markdown.wasm, a program of its own: md4c, the engine's reader
// of it (engine/markdown/md4c_reader.cpp) and the encoder, nothing else; it imports only abort and
// a memory-growth notice. web/boot.js fetches it only when a bank asks for Markdown (20 KB that a
// plain bank never downloads); platform::parse_markdown (platform/web) passes a text in and takes
// the encoded ParsedMarkdown out, through this module's own memory.
#include "engine/markdown.h"

#include <emscripten/emscripten.h>

#include <string>

namespace {
std::string answer;  // the last text's, until the next call
}

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* imquiz_markdown_read(const char* text, std::size_t size) {
    answer = imquiz::encode_parsed_markdown(imquiz::read_markdown(std::string_view(text, size)));
    return answer.data();
}

EMSCRIPTEN_KEEPALIVE std::size_t imquiz_markdown_size() { return answer.size(); }

}  // extern "C"
