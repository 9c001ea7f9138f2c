#include "app/bank_texts.h"

#include "engine/markdown.h"
#include "engine/unicode.h"

namespace imquiz::app {

RichTextRef text_rich(const Bank& bank, const LocalizedText& text, std::string_view language) {
    if (bank.text_format != TextFormat::Markdown) return std::nullopt;
    const std::string& source = bank.text(text, language);
    if (source.empty()) return std::nullopt;
    return read_markdown(neutralize_for_display(source)).text;
}

std::string text_words(const Bank& bank, const LocalizedText& text, std::string_view language) {
    if (RichTextRef rich = text_rich(bank, text, language)) return plain_text(*rich);
    return neutralize_for_display(bank.text(text, language));
}

}  // namespace imquiz::app
