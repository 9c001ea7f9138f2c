#include "app/bank_texts.h"

#include "app/player.h"

#include "engine/code_colours.h"
#include "engine/markdown.h"
#include "engine/unicode.h"
#include "platform/platform.h"

#include <cstdio>

namespace imquiz::app {

RichTextRef text_rich(const Bank& bank, const LocalizedText& text, std::string_view language) {
    if (!rich_player || bank.text_format != TextFormat::Markdown) return std::nullopt;
    const std::string& source = bank.text(text, language);
    if (source.empty()) return std::nullopt;
    return read_markdown(neutralize_for_display(source)).text;
}

bool colour_code(RichText& text) {
    if (!rich_player) return false;
    bool waits = false;
    for (Block& block : text.blocks) {
        if (block.kind != Block::Kind::Code || block.code.empty()) continue;
        std::string_view language = coloured_language(block.language);
        if (language.empty()) continue;
        std::string error;
        switch (platform::prepare_code_highlighter(error)) {
        case platform::CodeHighlighter::Ready:
            block.spans = read_code_spans(block.code, platform::highlight_code(language, block.code));
            break;
        case platform::CodeHighlighter::Loading: waits = true; break;
        case platform::CodeHighlighter::Failed: return false;
        }
    }
    return waits;
}

bool code_colours_arrived(bool screen_waits) {
    if (!rich_player || !screen_waits) return false;
    std::string error;
    platform::CodeHighlighter now = platform::prepare_code_highlighter(error);
    // Nobody needs to act on it (the code is readable plain), but whoever wonders why it is grey
    // finds the reason in the console.
    if (now == platform::CodeHighlighter::Failed) std::fprintf(stderr, "code stays without colours: %s\n", error.c_str());
    return now != platform::CodeHighlighter::Loading;
}

std::string text_words(const Bank& bank, const LocalizedText& text, std::string_view language) {
    if (RichTextRef rich = text_rich(bank, text, language)) return plain_text(*rich);
    return neutralize_for_display(bank.text(text, language));
}

}  // namespace imquiz::app
