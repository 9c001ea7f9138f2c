// engine/markdown.h on the web: md4c runs in a module of its own (markdown_module.cpp), which
// the platform carries texts to and answers from; the app asked for it (prepare_markdown) before
// it read a Markdown bank. Natively the engine links md4c itself (engine/markdown/).
#include "engine/markdown.h"
#include "platform/platform.h"

imquiz::ParsedMarkdown imquiz::read_markdown(std::string_view markdown) {
    return decode_parsed_markdown(platform::parse_markdown(markdown));
}
