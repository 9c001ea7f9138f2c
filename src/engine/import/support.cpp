#include "engine/import/support.h"

#include "engine/bank_loader.h"
#include "engine/bank_writer.h"
#include "engine/utf8.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace imquiz::import_support {
namespace {

// Latin-1 letters U+00C0..U+00FF without their accents; null for × and ÷.
const char* const latin1_letters[64] = {
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
    "d", "n", "o", "o", "o", "o", "o", nullptr, "o", "u", "u", "u", "u", "y", "th", "ss",
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
    "d", "n", "o", "o", "o", "o", "o", nullptr, "o", "u", "u", "u", "u", "y", "th", "y"};

// Russian letters U+0430..U+044F, transliterated the way URLs usually spell them; the hard and
// soft signs give "" (they belong to the word, they don't separate it).
const char* const cyrillic_letters[32] = {
    "a", "b", "v", "g", "d", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p",
    "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"};

// What `code` contributes to a slug: letters and digits (lowercase ASCII), "" for a character
// that is part of a word but writes nothing, null for a separator.
const char* slug_piece(char32_t code, char (&ascii)[2]) {
    if ((code >= 'a' && code <= 'z') || (code >= '0' && code <= '9')) {
        ascii[0] = static_cast<char>(code);
        return ascii;
    }
    if (code >= 'A' && code <= 'Z') {
        ascii[0] = static_cast<char>(code - 'A' + 'a');
        return ascii;
    }
    if (code == '\'' || code == 0x2019 || code == 0x02BC)
        return "";
    if (code >= 0xC0 && code <= 0xFF)
        return latin1_letters[code - 0xC0];
    if (code >= 0x0410 && code <= 0x042F)
        return cyrillic_letters[code - 0x0410];
    if (code >= 0x0430 && code <= 0x044F)
        return cyrillic_letters[code - 0x0430];
    switch (code) {
    case 0x0401: case 0x0451: return "e";    // Ё ё
    case 0x0404: case 0x0454: return "ye";   // Є є
    case 0x0406: case 0x0456: return "i";    // І і
    case 0x0407: case 0x0457: return "yi";   // Ї ї
    case 0x0490: case 0x0491: return "g";    // Ґ ґ
    default: return nullptr;
    }
}

bool is_ascii_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

std::string file_stem(std::string_view file_name) {
    const std::size_t slash = file_name.find_last_of("/\\");
    if (slash != std::string_view::npos)
        file_name.remove_prefix(slash + 1);
    const std::size_t dot = file_name.rfind('.');
    if (dot != std::string_view::npos && dot > 0)
        file_name = file_name.substr(0, dot);
    return std::string(file_name);
}

// "week-3_quiz" -> "Week 3 quiz".
std::string title_from_file_name(std::string_view file_name) {
    std::string title = file_stem(file_name);
    std::replace(title.begin(), title.end(), '-', ' ');
    std::replace(title.begin(), title.end(), '_', ' ');
    title = std::string(trim(title));
    if (title.empty())
        return "Imported quiz";
    if (title[0] >= 'a' && title[0] <= 'z')
        title[0] = static_cast<char>(title[0] - 'a' + 'A');
    return title;
}

// "questions[3].choices[1].text" -> 3, with `rest` = "choices[1].text".
bool split_question_path(std::string_view path, std::size_t& index, std::string_view& rest) {
    constexpr std::string_view prefix = "questions[";
    if (path.substr(0, prefix.size()) != prefix)
        return false;
    std::size_t i = prefix.size();
    std::size_t value = 0;
    const std::size_t digits_start = i;
    while (i < path.size() && path[i] >= '0' && path[i] <= '9' && i - digits_start < 9)
        value = value * 10 + static_cast<std::size_t>(path[i++] - '0');
    if (i == digits_start || i >= path.size() || path[i] != ']')
        return false;
    index = value;
    rest = path.substr(i + 1);
    if (!rest.empty() && rest.front() == '.')
        rest.remove_prefix(1);
    return true;
}

// "choices[1].text" with field "choices" -> 1.
bool item_index(std::string_view rest, std::string_view field, std::size_t& index) {
    if (rest.substr(0, field.size()) != field || rest.size() <= field.size() ||
        rest[field.size()] != '[')
        return false;
    std::size_t value = 0;
    std::size_t i = field.size() + 1;
    const std::size_t digits_start = i;
    while (i < rest.size() && rest[i] >= '0' && rest[i] <= '9' && i - digits_start < 9)
        value = value * 10 + static_cast<std::size_t>(rest[i++] - '0');
    if (i == digits_start)
        return false;
    index = value;
    return true;
}

// A load_bank() diagnostic (with a JSON path) moved to where the source wrote that part.
Diagnostic located(Diagnostic diagnostic, const SourceMap& map) {
    const std::string path = diagnostic.path;
    diagnostic.path.clear();
    if (path.empty())
        return diagnostic;
    SourcePosition where;
    std::size_t index = 0;
    std::string_view rest;
    if (split_question_path(path, index, rest)) {
        if (index < map.questions.size()) {
            const QuestionSource& question = map.questions[index];
            where = question.question;
            std::size_t item = 0;
            if (item_index(rest, "choices", item) && item < question.choices.size())
                where = question.choices[item];
            else if (item_index(rest, "accept", item) && item < question.accepted.size())
                where = question.accepted[item];
        }
    } else {
        rest = path;
        if (path.substr(0, 5) == "title")
            where = map.title;
        else if (path.substr(0, 11) == "description")
            where = map.description;
    }
    if (!rest.empty())
        diagnostic.message = std::string(rest) + ": " + diagnostic.message;
    diagnostic.line = where.line;
    diagnostic.column = where.column;
    return diagnostic;
}

} // namespace

Source::Source(std::string_view text) : text_(text) {
    std::size_t start = 0;
    int number = 1;
    while (true) {
        const std::size_t end = text.find('\n', start);
        std::string_view line =
            text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        lines_.push_back(SourceLine{line, start, number++});
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
}

SourcePosition Source::position_at(std::size_t offset) const {
    offset = std::min(offset, text_.size());
    auto after = std::upper_bound(lines_.begin(), lines_.end(), offset,
                                  [](std::size_t value, const SourceLine& line) {
                                      return value < line.offset;
                                  });
    const std::size_t line_index =
        after == lines_.begin() ? 0 : static_cast<std::size_t>(after - lines_.begin()) - 1;
    const SourceLine& line = lines_[line_index];
    std::size_t from = line.offset;
    int column = 1;
    if (line_index == last_line_index_ && offset >= last_offset_ && last_offset_ >= line.offset) {
        from = last_offset_;
        column = last_position_.column;
    }
    for (std::size_t i = from; i < offset; ++i)
        if (!is_utf8_continuation_byte(static_cast<unsigned char>(text_[i])))
            ++column;
    last_line_index_ = line_index;
    last_offset_ = offset;
    last_position_ = SourcePosition{line.number, column};
    return last_position_;
}

SourcePosition Source::start_of(const SourceLine& line) const {
    std::size_t i = 0;
    while (i < line.text.size() && is_ascii_space(line.text[i]))
        ++i;
    return position_at(line.offset + (i < line.text.size() ? i : 0));
}

std::size_t max_questions() {
    return LoadLimits{}.max_questions;
}

std::size_t max_choices_per_question() {
    return LoadLimits{}.max_choices_per_question;
}

bool check_input(std::string_view& text, std::string_view what, DiagnosticCollector& report) {
    const std::size_t limit = LoadLimits{}.max_file_bytes;
    if (text.size() > limit) {
        report.error_at({}, std::string(what) + " is larger than " +
                                std::to_string(limit / (1024 * 1024)) + " MiB");
        return false;
    }
    constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";
    if (text.substr(0, byte_order_mark.size()) == byte_order_mark)
        text.remove_prefix(byte_order_mark.size());
    const std::size_t bad = first_invalid_utf8(text);
    if (bad != std::string_view::npos) {
        const Source source(text);
        report.error_at(source.position_at(bad),
                        "invalid UTF-8: save the " + std::string(what) + " as UTF-8");
        return false;
    }
    return true;
}

bool start_bank(const ImportOptions& options, std::string_view file_name,
                std::string_view document_title, Bank& bank, DiagnosticCollector& report) {
    bool valid = true;
    if (!is_valid_language_code(options.language)) {
        report.error_at({}, "invalid language code " + in_quotes(options.language) +
                                ": use 2-3 lowercase letters, optionally with a region, like "
                                "\"en\" or \"pt-BR\"");
        valid = false;
    }
    if (!options.bank_id.empty()) {
        if (!is_slug(options.bank_id) || options.bank_id.size() > max_id_length) {
            report.error_at({}, "invalid bank id " + in_quotes(options.bank_id) +
                                    ": use lowercase letters, digits and single hyphens (at most " +
                                    std::to_string(max_id_length) +
                                    " characters), like \"data-parallelism\"");
            valid = false;
        }
        bank.id = options.bank_id;
    } else {
        bank.id = slugify(file_stem(file_name), max_id_length);
        if (bank.id.empty())
            bank.id = "imported";
    }
    bank.languages = {options.language};
    bank.default_language = options.language;
    std::string title(trim(options.title));
    if (title.empty())
        title = std::string(trim(document_title));
    if (title.empty())
        title = title_from_file_name(file_name);
    bank.title = text_in(options.language, title);
    return valid;
}

ImportResult finish_import(const Bank& bank, const SourceMap& map,
                           std::vector<Diagnostic> diagnostics, std::string_view file_name) {
    ImportResult result;
    result.diagnostics = std::move(diagnostics);
    if (!has_errors(result.diagnostics)) {
        if (bank.questions.empty()) {
            Diagnostic none;
            none.file = std::string(file_name);
            none.message = "no questions found";
            result.diagnostics.push_back(std::move(none));
        } else {
            BankLoadResult loaded = load_bank(bank_to_json(bank), file_name);
            for (Diagnostic& diagnostic : loaded.diagnostics)
                result.diagnostics.push_back(located(std::move(diagnostic), map));
            result.bank = std::move(loaded.bank);
        }
    }
    // The imported file's problems first (a key file's after them), each file's in reading order.
    std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                     [&](const Diagnostic& a, const Diagnostic& b) {
                         const bool a_other = a.file != file_name;
                         const bool b_other = b.file != file_name;
                         if (a_other != b_other)
                             return b_other;
                         return a.line != b.line ? a.line < b.line : a.column < b.column;
                     });
    if (has_errors(result.diagnostics))
        result.bank.reset();
    return result;
}

LocalizedText text_in(const std::string& language, std::string text) {
    LocalizedText result;
    result.set(language, std::move(text));
    return result;
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && is_ascii_space(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && is_ascii_space(text.back()))
        text.remove_suffix(1);
    return text;
}

bool is_blank(std::string_view text) {
    return trim(text).empty();
}

std::string slugify(std::string_view text, std::size_t max_length) {
    std::string slug;
    bool separator_pending = false;
    std::size_t i = 0;
    while (i < text.size() && slug.size() <= max_length) {
        char ascii[2] = {0, 0};
        const char* piece = slug_piece(decode_utf8(text, i), ascii);
        if (piece == nullptr) {
            separator_pending = true;
            continue;
        }
        if (*piece == 0)
            continue;
        if (separator_pending && !slug.empty())
            slug += '-';
        separator_pending = false;
        slug += piece;
    }
    if (slug.size() > max_length) {
        const std::size_t cut = slug.rfind('-', max_length);
        slug.resize(cut != std::string::npos && cut >= max_length / 2 ? cut : max_length);
    }
    while (!slug.empty() && slug.back() == '-')
        slug.pop_back();
    return slug;
}

std::string UniqueIds::take(const std::string& base) {
    std::string id = base;
    if (taken_.count(id) != 0) {
        int& suffix = next_suffix_.emplace(base, 2).first->second;
        do {
            const std::string ending = "-" + std::to_string(suffix++);
            std::string start =
                base.substr(0, max_id_length - std::min(max_id_length, ending.size()));
            while (!start.empty() && start.back() == '-')
                start.pop_back();
            id = start + ending;
        } while (taken_.count(id) != 0);
    }
    taken_.insert(id);
    return id;
}

void assign_choice_ids(Question& question) {
    assign_option_ids(question.choices);
}

void assign_option_ids(std::vector<Choice>& options) {
    // Ids stay short: a choice text can be a whole sentence.
    constexpr std::size_t max_choice_id_length = 40;
    UniqueIds ids;
    for (std::size_t i = 0; i < options.size(); ++i) {
        Choice& choice = options[i];
        const auto& translations = choice.text.translations();
        const std::string& text =
            choice.text.is_plain() || translations.empty() ? choice.text.plain()
                                                           : translations.begin()->second;
        std::string base = slugify(text, max_choice_id_length);
        if (base.empty())
            base = "choice-" + std::to_string(i + 1);
        choice.id = ids.take(base);
    }
}

void assign_match_item_ids(Question& question) {
    constexpr std::size_t max_item_id_length = 40;
    UniqueIds ids;
    for (std::size_t i = 0; i < question.match_items.size(); ++i) {
        MatchItem& item = question.match_items[i];
        const auto& translations = item.text.translations();
        const std::string& text = item.text.is_plain() || translations.empty() ? item.text.plain() : translations.begin()->second;
        std::string base = slugify(text, max_item_id_length);
        if (base.empty())
            base = "item-" + std::to_string(i + 1);
        item.id = ids.take(base);
    }
}

std::string gift_category_tag(std::string_view path) {
    path = trim(path);
    while (!path.empty() && path.back() == '/')
        path.remove_suffix(1);
    const std::size_t slash = path.rfind('/');
    const std::string_view last = trim(slash == std::string_view::npos ? path
                                                                       : path.substr(slash + 1));
    std::string tag = slugify(last, max_id_length);
    return tag.empty() ? std::string(last) : tag;
}

void assign_matching_ids(Question& question, const std::vector<std::size_t>& answer_of_item) {
    assign_choice_ids(question);
    assign_match_item_ids(question);
    for (std::size_t i = 0; i < question.match_items.size() && i < answer_of_item.size(); ++i)
        question.match_items[i].answer_id = question.choices[answer_of_item[i]].id;
}

std::string take_question_id(UniqueIds& ids, std::string_view title, std::size_t number) {
    std::string id = slugify(title, 64);
    if (id.empty())
        id = "q" + std::to_string(number);
    return ids.take(id);
}

bool set_explanation(Question& question, const std::string& language,
                     const std::string& general_feedback,
                     const std::vector<std::string>& answer_feedbacks, const char* separator) {
    if (!general_feedback.empty()) {
        question.explanation = text_in(language, general_feedback);
        return !answer_feedbacks.empty();
    }
    if (answer_feedbacks.empty())
        return false;
    std::string joined;
    for (const std::string& feedback : answer_feedbacks)
        joined += (joined.empty() ? "" : separator) + feedback;
    question.explanation = text_in(language, joined);
    return false;
}

std::string escape_markdown(std::string_view plain) {
    std::string out;
    bool line_start = true;
    for (std::size_t i = 0; i < plain.size(); ++i) {
        const char c = plain[i];
        if (c == '\n') {
            out += "\\\n";   // a hard line break
            line_start = true;
            continue;
        }
        if (line_start && c == ' ') {
            out += c;
            continue;
        }
        bool mark = std::strchr("*_`[]<>#|~$&\\", c) != nullptr;
        if (line_start && std::strchr("-+=", c))
            mark = true;
        if (line_start && c >= '0' && c <= '9') {
            std::size_t j = i;
            while (j < plain.size() && plain[j] >= '0' && plain[j] <= '9')
                ++j;
            out.append(plain, i, j - i);
            if (j < plain.size() && (plain[j] == '.' || plain[j] == ')'))
                out += '\\';
            i = j - 1;
            line_start = false;
            continue;
        }
        if (mark)
            out += '\\';
        out += c;
        line_start = false;
    }
    return out;
}

LocalizedText escape_markdown(const LocalizedText& text) {
    if (text.empty())
        return text;
    if (text.is_plain())
        return LocalizedText::same_in_all_languages(escape_markdown(text.plain()));
    LocalizedText result;
    for (const auto& [language, translation] : text.translations())
        result.set(language, escape_markdown(translation));
    return result;
}

void report_loss(std::vector<Diagnostic>* losses, std::string path, std::string message) {
    if (losses == nullptr)
        return;
    Diagnostic diagnostic;
    diagnostic.severity = Diagnostic::Severity::Warning;
    diagnostic.path = std::move(path);
    diagnostic.message = std::move(message);
    losses->push_back(std::move(diagnostic));
}

bool choice_ids_read_back(const std::vector<Choice>& choices, std::string_view language,
                          std::string_view default_language) {
    std::vector<Choice> read_back = choices;
    for (Choice& choice : read_back)
        choice.text = LocalizedText::same_in_all_languages(choice.text.get(language, default_language));
    assign_option_ids(read_back);
    for (std::size_t i = 0; i < choices.size(); ++i)
        if (read_back[i].id != choices[i].id)
            return false;
    return true;
}

std::vector<std::string> every_accepted_text(const std::vector<LocalizedText>& accepted_texts,
                                             std::string_view language,
                                             std::string_view default_language) {
    std::vector<std::string> written;
    const auto add = [&](const std::string& answer) {
        if (std::find(written.begin(), written.end(), answer) == written.end())
            written.push_back(answer);
    };
    for (const LocalizedText& answer : accepted_texts) {
        add(answer.get(language, default_language));
        for (const auto& translation : answer.translations())
            add(translation.second);
    }
    return written;
}

std::string shortest_number(double value) {
    char buffer[40];
    // A whole number as its digits (384400, not 3.844e+05), while they are exact.
    if (value > -1e15 && value < 1e15 && value == std::floor(value)) {
        std::snprintf(buffer, sizeof buffer, "%.0f", value);
        return buffer;
    }
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (std::strtod(buffer, nullptr) == value)
            break;
    }
    return buffer;
}

} // namespace imquiz::import_support
