#include "app/bank_texts.h"

#include "engine/markdown.h"
#include "engine/unicode.h"

#include <unordered_map>

namespace imquiz::app {

namespace {

// Parsed Markdown by source text. Bounded: a long session through many big banks starts over
// rather than keep every text it ever showed.
RichTextRef parsed(const std::string& source) {
    static std::unordered_map<std::string, RichTextRef> cache;
    auto found = cache.find(source);
    if (found != cache.end()) return found->second;
    if (cache.size() >= 100000) cache.clear();
    auto rich = std::make_shared<const RichText>(parse_markdown(source));
    cache.emplace(source, rich);
    return rich;
}

}  // namespace

RichTextRef text_rich(const Bank& bank, const LocalizedText& text, std::string_view language) {
    if (bank.text_format != TextFormat::Markdown) return nullptr;
    const std::string& source = bank.text(text, language);
    if (source.empty()) return nullptr;
    return parsed(neutralize_for_display(source));
}

std::string text_words(const Bank& bank, const LocalizedText& text, std::string_view language) {
    if (RichTextRef rich = text_rich(bank, text, language)) return plain_text(*rich);
    return neutralize_for_display(bank.text(text, language));
}

}  // namespace imquiz::app
