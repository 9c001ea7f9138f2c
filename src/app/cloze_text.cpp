#include "app/cloze_text.h"

#include "engine/unicode.h"

#include <algorithm>
#include <cctype>

namespace imquiz::app {

namespace {

// Every ASCII punctuation character CommonMark lets a backslash escape: `*`, `_`, `$` (math),
// `<` (raw HTML, shown as text anyway), `[`, `!` (links, images), and the rest.
std::string escape_markdown_words(const std::string& words) {
    std::string out;
    out.reserve(words.size() + 8);
    for (char c : words) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u < 0x80 && std::ispunct(u)) out += '\\';
        if (c == '\n' || c == '\r') c = ' ';  // a gap stays on its line
        out += c;
    }
    return out;
}

}  // namespace

std::vector<const Blank*> blanks_in_prompt_order(const Bank& bank, const Question& question, const std::string& language) {
    std::vector<const Blank*> out;
    for (const ClozePiece& piece : split_cloze(bank.text(question.prompt, language)))
        if (const Blank* blank = question.find_blank(piece.blank_id))
            out.push_back(blank);
    // A blank the prompt does not show (the validator refuses that): last, so it can be answered.
    for (const Blank& blank : question.blanks)
        if (std::find(out.begin(), out.end(), &blank) == out.end()) out.push_back(&blank);
    return out;
}

LocalizedText cloze_prompt(const Bank& bank, const Question& question, const std::string& language,
                           const std::function<std::string(const Blank&, int)>& gap) {
    const bool markdown = bank.text_format == TextFormat::Markdown;
    std::string text;
    int number = 0;
    for (const ClozePiece& piece : split_cloze(bank.text(question.prompt, language))) {
        text += piece.text;
        if (const Blank* blank = question.find_blank(piece.blank_id)) {
            const std::string words = gap(*blank, ++number);
            text += markdown ? escape_markdown_words(words) : words;
        }
    }
    return LocalizedText::same_in_all_languages(std::move(text));
}

std::string empty_gap(int number) { return "[" + std::to_string(number) + " ____]"; }

std::string filled_gap(int number, const std::string& words) {
    return "[" + std::to_string(number) + ": " + neutralize_for_display(words) + "]";
}

}  // namespace imquiz::app
