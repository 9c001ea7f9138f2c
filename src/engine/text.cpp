#include "engine/text.h"

namespace imquiz {
namespace {

bool is_lower_letter(char c) { return c >= 'a' && c <= 'z'; }
bool is_upper_letter(char c) { return c >= 'A' && c <= 'Z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

template <typename Predicate>
bool all_of(std::string_view text, Predicate predicate) {
    for (char c : text)
        if (!predicate(c))
            return false;
    return true;
}

const std::string empty_string;

} // namespace

bool is_valid_language_code(std::string_view code) {
    const std::size_t dash = code.find('-');
    const std::string_view language = code.substr(0, dash);
    if (language.size() < 2 || language.size() > 3 || !all_of(language, is_lower_letter))
        return false;
    if (dash == std::string_view::npos)
        return true;
    const std::string_view region = code.substr(dash + 1);
    return (region.size() == 2 && all_of(region, is_upper_letter)) ||
           (region.size() == 3 && all_of(region, is_digit));
}

LocalizedText LocalizedText::same_in_all_languages(std::string text) {
    LocalizedText result;
    result.is_plain_ = true;
    result.text_ = std::move(text);
    return result;
}

void LocalizedText::set(std::string language, std::string text) {
    if (is_plain_) {
        is_plain_ = false;
        text_.clear();
    }
    if (single_ && single_language_ == language) {
        text_ = std::move(text);
        by_language_.clear();   // it mirrored the old text
        return;
    }
    if (single_) {
        // A second language: from now on, all of them are in the map.
        by_language_.clear();
        by_language_.emplace(std::move(single_language_), std::move(text_));
        single_ = false;
        single_language_.clear();
        text_.clear();
    }
    if (by_language_.empty()) {
        single_ = true;
        single_language_ = std::move(language);
        text_ = std::move(text);
        return;
    }
    by_language_[std::move(language)] = std::move(text);
}

const std::map<std::string, std::string, std::less<>>& LocalizedText::translations() const {
    if (single_ && by_language_.empty())
        by_language_.emplace(single_language_, text_);
    return by_language_;
}

const std::string& LocalizedText::plain() const {
    return is_plain_ ? text_ : empty_string;
}

const std::string& LocalizedText::get(std::string_view language,
                                      std::string_view default_language) const {
    if (is_plain_ || single_)
        return text_;   // a single translation is also what every fallback comes to
    if (auto found = by_language_.find(language); found != by_language_.end())
        return found->second;
    if (auto found = by_language_.find(default_language); found != by_language_.end())
        return found->second;
    return by_language_.empty() ? empty_string : by_language_.begin()->second;
}

bool LocalizedText::empty() const {
    if (is_plain_)
        return text_.empty();
    return !single_ && by_language_.empty();
}

bool LocalizedText::has_language(std::string_view language) const {
    if (is_plain_)
        return true;
    return single_ ? single_language_ == language : by_language_.count(language) != 0;
}

bool operator==(const LocalizedText& a, const LocalizedText& b) {
    if (a.is_plain_ != b.is_plain_)
        return false;
    if (a.is_plain_)
        return a.text_ == b.text_;
    return a.translations() == b.translations();
}

} // namespace imquiz
