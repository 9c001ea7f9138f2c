// Plain text -> bank, in the layout of our seed documents:
//
//   Title line
//
//   Intro paragraph (the bank's description)
//
//   1. Question text
//      • an option
//      • the right option (*)
//
// The right options are marked in the document (a trailing "(*)", or "[x]" after the bullet) or
// listed in a key file ("1: 2", "1 = B"). Conventions: docs/authoring.md.
#include "engine/import/import.h"

#include "engine/import/support.h"

#include <algorithm>
#include <map>

namespace imquiz {
namespace {

using namespace import_support;

constexpr std::string_view bullets[] = {"\u2022", "\u25E6", "\u25AA", "-", "*", "+"};

struct TextOption {
    std::string text;
    bool marked = false;
    SourcePosition where;
    std::size_t indent = 0;   // bytes of whitespace before the bullet
};

struct TextQuestion {
    int number = 0;
    SourcePosition where;
    std::string prompt;
    std::vector<TextOption> options;
    bool too_many_options = false;   // reported where the first one too many was written
};

// One answer of a key line: an option number (1-based) or letter, as written.
struct KeyAnswer {
    std::size_t index = 0;   // 0-based
    bool is_letter = false;
    std::string written;
};

struct KeyEntry {
    std::vector<KeyAnswer> answers;
    SourcePosition where;
    bool used = false;
};

std::size_t leading_space(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
        ++i;
    return i;
}

// "12. text" or "12) text": up to four digits, then '.' or ')', then a space or the end.
bool read_question_line(std::string_view content, int& number, std::string_view& text) {
    std::size_t i = 0;
    int value = 0;
    while (i < content.size() && i < 4 && content[i] >= '0' && content[i] <= '9')
        value = value * 10 + (content[i++] - '0');
    if (i == 0 || i >= content.size() || (content[i] != '.' && content[i] != ')'))
        return false;
    ++i;
    if (i < content.size() && content[i] != ' ' && content[i] != '\t')
        return false;
    number = value;
    text = trim(content.substr(i));
    return true;
}

// "• text", "- text", "* text"...: a bullet, then a space.
bool read_option_line(std::string_view content, std::string_view& text) {
    for (std::string_view bullet : bullets) {
        if (content.substr(0, bullet.size()) != bullet)
            continue;
        const std::string_view rest = content.substr(bullet.size());
        if (rest.empty() || (rest[0] != ' ' && rest[0] != '\t'))
            return false;
        text = trim(rest);
        return true;
    }
    return false;
}

// Removes the right-answer marks: "[x] " / "[ ] " at the start, " (*)" at the end.
bool strip_marks(std::string_view& text) {
    bool marked = false;
    if (text.size() >= 3 && text[0] == '[' && text[2] == ']' &&
        (text[1] == 'x' || text[1] == 'X' || text[1] == ' ')) {
        marked = text[1] != ' ';
        text = trim(text.substr(3));
    }
    constexpr std::string_view star = "(*)";
    if (text.size() >= star.size() && text.substr(text.size() - star.size()) == star) {
        marked = true;
        text = trim(text.substr(0, text.size() - star.size()));
    }
    return marked;
}

std::string letters_up_to(std::size_t count) {
    if (count == 0)
        return "none";
    if (count == 1)
        return "A";
    return std::string("A-") + static_cast<char>('A' + std::min<std::size_t>(count, 26) - 1);
}

class TextImporter {
public:
    TextImporter(std::string_view file_name, std::string_view key_file_name,
                 const ImportOptions& options, std::vector<Diagnostic>& diagnostics)
        : options_(options), report_(file_name, LoadLimits{}.max_diagnostics, diagnostics),
          key_report_(key_file_name, LoadLimits{}.max_diagnostics, diagnostics) {}

    bool check_input(std::string_view& text) {
        return import_support::check_input(text, "file", report_);
    }
    bool check_key_input(std::string_view& text) {
        return import_support::check_input(text, "key file", key_report_);
    }

    void read_document(const Source& source) {
        std::vector<std::vector<std::string_view>> header;   // paragraphs before question 1
        std::vector<SourcePosition> header_where;
        bool new_paragraph = true;
        for (const SourceLine& line : source.lines()) {
            if (report_.full() || stopped_)
                break;
            const std::string_view content = trim(line.text);
            if (content.empty()) {
                new_paragraph = true;
                continue;
            }
            const SourcePosition where = source.start_of(line);
            int number = 0;
            std::string_view text;
            if (read_question_line(content, number, text)) {
                start_question(number, text, where);
            } else if (read_option_line(content, text)) {
                add_option(text, where, leading_space(line.text));
            } else if (questions_.empty()) {
                if (new_paragraph || header.empty()) {   // an option line may come first
                    header.emplace_back();
                    header_where.push_back(where);
                }
                header.back().push_back(content);
            } else {
                continue_text(content, where, leading_space(line.text));
            }
            new_paragraph = false;
        }
        const auto joined = [](const std::vector<std::string_view>& lines) {
            std::string text;
            for (std::string_view line : lines)
                text += (text.empty() ? "" : " ") + std::string(line);
            return text;
        };
        if (!header.empty()) {
            title_ = joined(header[0]);
            map_.title = header_where[0];
        }
        for (std::size_t i = 1; i < header.size(); ++i)
            description_ += (description_.empty() ? "" : "\n") + joined(header[i]);
        if (header.size() > 1)
            map_.description = header_where[1];
    }

    void read_key(const Source& source) {
        for (const SourceLine& line : source.lines()) {
            if (key_report_.full())
                break;
            const std::string_view content = trim(line.text);
            if (content.empty() || content[0] == '#' || content.substr(0, 2) == "//")
                continue;
            read_key_line(content, source.start_of(line));
        }
    }

    Bank build(std::string_view file_name) {
        Bank bank;
        start_bank(options_, file_name, title_, bank, report_);
        if (!description_.empty())
            bank.description = text_in(options_.language, description_);
        if (!options_.title.empty())
            map_.title = SourcePosition{};
        for (const TextQuestion& question : questions_)
            add_question(question, bank);
        for (const auto& [number, entry] : key_) {
            if (!entry.used)
                key_report_.error_at(entry.where, "question " + std::to_string(number) +
                                                      " is not in the document");
        }
        return bank;
    }

    const SourceMap& map() const { return map_; }

private:
    void start_question(int number, std::string_view text, SourcePosition where) {
        auto [first, inserted] = first_line_of_number_.emplace(number, where.line);
        if (!inserted)
            report_.error_at(where, "question number " + std::to_string(number) +
                                        " is used twice (first at line " +
                                        std::to_string(first->second) + ")");
        if (questions_.size() >= max_questions()) {
            report_.error_at(where, "too many questions: the limit is " +
                                        std::to_string(max_questions()));
            stopped_ = true;
            return;
        }
        TextQuestion question;
        question.number = number;
        question.where = where;
        question.prompt = std::string(text);
        questions_.push_back(std::move(question));
    }

    void add_option(std::string_view text, SourcePosition where, std::size_t indent) {
        if (questions_.empty()) {
            report_.error_at(where, "option before the first numbered question");
            return;
        }
        TextQuestion& question = questions_.back();
        if (question.options.size() >= max_choices_per_question()) {
            if (!question.too_many_options)
                report_.error_at(where, "too many options (the limit is " +
                                            std::to_string(max_choices_per_question()) + ")");
            question.too_many_options = true;
            return;
        }
        TextOption option;
        option.text = std::string(text);   // marks are read once continuation lines are in
        option.where = where;
        option.indent = indent;
        question.options.push_back(std::move(option));
    }

    // A line that is neither a question nor an option: more of the question text before the
    // first option, more of the option above when indented deeper than its bullet.
    void continue_text(std::string_view content, SourcePosition where, std::size_t indent) {
        TextQuestion& question = questions_.back();
        if (question.options.empty()) {
            question.prompt += (question.prompt.empty() ? "" : " ") + std::string(content);
            return;
        }
        TextOption& option = question.options.back();
        if (indent > option.indent) {
            option.text += " " + std::string(content);
            return;
        }
        report_.error_at(where, "expected an option (\"\u2022 text\") or the next numbered "
                                "question (\"" + std::to_string(question.number + 1) +
                                ". text\")");
    }

    // "3: 2", "3 = B", "3: 1, 4" (several right options make a multiple choice).
    void read_key_line(std::string_view content, SourcePosition where) {
        const auto malformed = [&] {
            key_report_.error_at(where, "expected a line like \"1: 2\" or \"1 = B\" (the question "
                                        "number, then the right option's number or letter)");
        };
        std::size_t i = 0;
        int number = 0;
        while (i < content.size() && i < 4 && content[i] >= '0' && content[i] <= '9')
            number = number * 10 + (content[i++] - '0');
        const std::size_t digits = i;
        while (i < content.size() && (content[i] == ' ' || content[i] == '\t'))
            ++i;
        if (digits == 0 || i >= content.size() || (content[i] != ':' && content[i] != '=')) {
            malformed();
            return;
        }
        KeyEntry entry;
        entry.where = where;
        std::string_view rest = content.substr(i + 1);
        while (!(rest = trim(rest)).empty()) {
            const std::size_t end = std::min(rest.find_first_of(", \t"), rest.size());
            const std::string_view item = rest.substr(0, end);
            rest.remove_prefix(std::min(end + 1, rest.size()));
            if (item.empty())
                continue;
            KeyAnswer answer;
            answer.written = std::string(item);
            if (item.size() == 1 && ((item[0] >= 'A' && item[0] <= 'Z') ||
                                     (item[0] >= 'a' && item[0] <= 'z'))) {
                answer.is_letter = true;
                answer.index = static_cast<std::size_t>((item[0] | 0x20) - 'a');
            } else if (item.size() <= 2 &&
                       std::all_of(item.begin(), item.end(),
                                   [](char c) { return c >= '0' && c <= '9'; }) &&
                       item != "0" && item != "00") {
                std::size_t value = 0;
                for (char c : item)
                    value = value * 10 + static_cast<std::size_t>(c - '0');
                answer.index = value - 1;
            } else {
                malformed();
                return;
            }
            entry.answers.push_back(std::move(answer));
        }
        if (entry.answers.empty()) {
            malformed();
            return;
        }
        auto [existing, inserted] = key_.emplace(number, entry);
        if (!inserted)
            key_report_.error_at(where, "question " + std::to_string(number) +
                                            " is listed twice (first at line " +
                                            std::to_string(existing->second.where.line) + ")");
    }

    void add_question(TextQuestion written, Bank& bank) {
        const std::string name = "question " + std::to_string(written.number);
        bool valid = !written.too_many_options;
        for (TextOption& option : written.options) {
            std::string_view text = option.text;
            option.marked = strip_marks(text);
            option.text = std::string(text);
            if (option.text.empty()) {
                report_.error_at(option.where, "the option text is empty");
                valid = false;
            }
        }
        if (written.prompt.empty()) {
            report_.error_at(written.where, name + " has no text");
            valid = false;
        }
        if (written.options.size() < 2) {
            report_.error_at(written.where, name + " needs at least 2 options, has " +
                                                std::to_string(written.options.size()));
            valid = false;
        }
        std::vector<bool> right(written.options.size(), false);
        bool marked = false;
        for (std::size_t i = 0; i < written.options.size(); ++i) {
            right[i] = written.options[i].marked;
            marked = marked || right[i];
        }
        auto key = key_.find(written.number);
        if (key != key_.end()) {
            key->second.used = true;
            std::vector<bool> from_key(written.options.size(), false);
            bool key_valid = true;
            for (const KeyAnswer& answer : key->second.answers) {
                if (answer.index < written.options.size()) {
                    from_key[answer.index] = true;
                    continue;
                }
                const std::string count = std::to_string(written.options.size());
                key_report_.error_at(key->second.where,
                                     name + " has " + count + " options" +
                                         (answer.is_letter
                                              ? " (" + letters_up_to(written.options.size()) + ")"
                                              : std::string()) +
                                         "; the key says " + answer.written);
                key_valid = false;
            }
            valid = valid && key_valid;
            if (key_valid && marked && from_key != right)
                report_.warning_at(written.where, "the key file and the marks in the document "
                                                  "disagree on " + name + ": the key file is used");
            right = from_key;
        }
        if (valid && std::none_of(right.begin(), right.end(), [](bool value) { return value; })) {
            report_.error_at(written.where, name + " has no right answer: mark the right option "
                                                   "with \"(*)\" or list it in a key file");
            valid = false;
        }
        if (!valid)
            return;
        Question question;
        question.id = "q" + std::to_string(written.number);
        question.prompt = text_in(options_.language, written.prompt);
        QuestionSource where;
        where.question = written.where;
        int right_count = 0;
        for (std::size_t i = 0; i < written.options.size(); ++i) {
            Choice choice;
            choice.text = text_in(options_.language, written.options[i].text);
            choice.correct = right[i];
            right_count += right[i] ? 1 : 0;
            question.choices.push_back(std::move(choice));
            where.choices.push_back(written.options[i].where);
        }
        question.type =
            right_count == 1 ? QuestionType::SingleChoice : QuestionType::MultipleChoice;
        assign_choice_ids(question);
        bank.questions.push_back(std::move(question));
        map_.questions.push_back(std::move(where));
    }

    const ImportOptions& options_;
    DiagnosticCollector report_;
    DiagnosticCollector key_report_;
    std::vector<TextQuestion> questions_;
    std::map<int, int> first_line_of_number_;
    std::map<int, KeyEntry> key_;
    bool stopped_ = false;   // after too many questions
    std::string title_;
    std::string description_;
    SourceMap map_;
};

} // namespace

ImportResult import_text(std::string_view text, std::string_view file_name,
                         const ImportOptions& options,
                         std::optional<std::string_view> key_file_text,
                         std::string_view key_file_name) {
    std::vector<Diagnostic> diagnostics;
    TextImporter importer(file_name, key_file_name, options, diagnostics);
    bool readable = importer.check_input(text);
    if (key_file_text)
        readable = importer.check_key_input(*key_file_text) && readable;
    if (!readable)
        return finish_import(Bank{}, SourceMap{}, std::move(diagnostics), file_name);
    const Source source(text);
    importer.read_document(source);
    if (key_file_text) {
        const Source key_source(*key_file_text);
        importer.read_key(key_source);
    }
    const Bank bank = importer.build(file_name);
    return finish_import(bank, importer.map(), std::move(diagnostics), file_name);
}

} // namespace imquiz
