// engine/markdown.h on the web: md4c runs in a module of its own (markdown_module.cpp), which
// the platform carries texts to and answers from; the app asked for it (prepare_markdown) before
// it read a Markdown bank. Natively the engine links md4c itself (engine/markdown/).
#include "engine/markdown.h"
#include "platform/platform.h"

imquiz::ParsedMarkdown imquiz::read_markdown(std::string_view markdown) {
    return decode_parsed_markdown(platform::parse_markdown(markdown));
}

#ifdef IMQUIZ_PLAIN_PLAYER
// The plain player (app/player.h) reads a Markdown bank only to learn that it is one, and hands it
// to the rich player; it finds nothing in its texts. With this definition here, the real one
// (engine/markdown_check.cpp) and its walk over the texts are never linked into it.
imquiz::MarkdownUse imquiz::markdown_use(std::string_view) { return {}; }
#endif
