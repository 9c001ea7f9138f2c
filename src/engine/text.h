// Texts that authors may translate, and the language codes that key them.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace imquiz {

// True for codes like "en", "ru", "id", "fil", "pt-BR", "es-419": 2-3 lowercase ASCII letters,
// optionally "-" and a region of 2 uppercase letters or 3 digits. Deliberately narrower than
// BCP 47: the codes key translation maps and must compare byte for byte.
bool is_valid_language_code(std::string_view code);

// A text shown to learners. In a bank it is either one plain string, the same in every language,
// or an object mapping a language code to that language's string.
class LocalizedText {
public:
    LocalizedText() = default;

    // The plain-string form: the same text whatever language is asked for.
    static LocalizedText same_in_all_languages(std::string text);

    // Adds or replaces one translation; turns a plain text into a translated one.
    void set(std::string language, std::string text);

    // The text for `language`, falling back to `default_language`, then to any translation present
    // (the alphabetically first language, so the fallback is stable). Empty only if the text is.
    const std::string& get(std::string_view language, std::string_view default_language) const;

    bool is_plain() const { return is_plain_; }
    // True when the text has no content at all (absent optional field, or `{}`).
    bool empty() const;
    // A plain text has every language; a translated one only those it lists.
    bool has_language(std::string_view language) const;
    // The translations, by language code; empty for a plain text.
    const std::map<std::string, std::string, std::less<>>& translations() const;
    // The plain string; empty for a translated text.
    const std::string& plain() const;

    friend bool operator==(const LocalizedText& a, const LocalizedText& b);
    friend bool operator!=(const LocalizedText& a, const LocalizedText& b) { return !(a == b); }

private:
    bool is_plain_ = false;
    // Most texts have one translation (most banks have one language): it is kept in text_, its
    // language in single_language_, and the map is only made when translations() asks for it
    // or a second language comes. A map node per text was a third of the allocations of loading
    // a 10,000-question bank (70,000 texts), and every allocation shows in wasm.
    bool single_ = false;
    std::string text_;                 // the plain text, or the one translation
    std::string single_language_;
    mutable std::map<std::string, std::string, std::less<>> by_language_;
};

} // namespace imquiz
