// Aiken -> bank: single-choice questions written as
//
//   Question text
//   A. first option
//   B) second option
//   ANSWER: B
//
// as Moodle reads them (docs/authoring.md). Blank lines are ignored; the ANSWER line ends a
// question, so a question line that follows options without one means that ANSWER is missing.
#include "engine/import/import.h"

#include "engine/import/support.h"

namespace imquiz {
namespace {

using namespace import_support;

struct AikenOption {
    char letter = 0;
    std::string text;
    SourcePosition where;
};

struct AikenQuestion {
    bool active = false;
    SourcePosition where;
    std::string prompt;
    std::vector<AikenOption> options;
};

// "A. text" or "A) text" (uppercase letter, then at least one space or the end of the line).
bool read_option(std::string_view line, char& letter, std::string_view& text) {
    if (line.size() < 2 || line[0] < 'A' || line[0] > 'Z' || (line[1] != '.' && line[1] != ')'))
        return false;
    if (line.size() > 2 && line[2] != ' ' && line[2] != '\t')
        return false;
    letter = line[0];
    text = trim(line.substr(2));
    return true;
}

bool read_answer_line(std::string_view line, std::string_view& answer) {
    constexpr std::string_view keyword = "ANSWER:";
    if (line.size() < keyword.size())
        return false;
    for (std::size_t i = 0; i < keyword.size(); ++i) {
        char c = line[i];
        if (c >= 'a' && c <= 'z')
            c = static_cast<char>(c - 'a' + 'A');
        if (c != keyword[i])
            return false;
    }
    answer = trim(line.substr(keyword.size()));
    return true;
}

// "A-D" when the letters run from A without a gap, else "A, B, D".
std::string letter_list(const std::vector<AikenOption>& options) {
    bool consecutive = true;
    for (std::size_t i = 0; i < options.size(); ++i)
        consecutive = consecutive && options[i].letter == static_cast<char>('A' + i);
    if (consecutive && options.size() > 1)
        return std::string("A-") + options.back().letter;
    std::string list;
    for (const AikenOption& option : options)
        list += (list.empty() ? "" : ", ") + std::string(1, option.letter);
    return list;
}

class AikenImporter {
public:
    AikenImporter(std::string_view file_name, const ImportOptions& options,
                  std::vector<Diagnostic>& diagnostics)
        : options_(options), report_(file_name, LoadLimits{}.max_diagnostics, diagnostics) {}

    bool check_input(std::string_view& text) {
        return import_support::check_input(text, "file", report_);
    }

    Bank read(const Source& source) {
        start_bank(options_, report_.file(), "", bank_, report_);
        for (const SourceLine& line : source.lines()) {
            if (report_.full() || stopped_)
                break;
            const std::string_view content = trim(line.text);
            if (content.empty())
                continue;
            const SourcePosition where = source.start_of(line);
            std::string_view answer;
            char letter = 0;
            std::string_view option_text;
            if (read_answer_line(content, answer)) {
                if (!pending_.active)
                    report_.error_at(where, "ANSWER line without a question");
                else
                    finish_question(answer, where);
                pending_ = AikenQuestion{};
            } else if (read_option(content, letter, option_text)) {
                read_option_line(letter, option_text, where);
            } else {
                if (pending_.active && !pending_.options.empty()) {
                    report_.error_at(pending_.where, "the question has no ANSWER line");
                    pending_ = AikenQuestion{};
                }
                if (pending_.active) {
                    pending_.prompt += ' ';
                } else {
                    pending_.active = true;
                    pending_.where = where;
                }
                pending_.prompt += content;
            }
        }
        if (pending_.active)
            report_.error_at(pending_.where, "the question has no ANSWER line");
        return std::move(bank_);
    }

    const SourceMap& map() const { return map_; }

private:
    void read_option_line(char letter, std::string_view text, SourcePosition where) {
        if (!pending_.active) {
            report_.error_at(where, "option " + std::string(1, letter) +
                                        " comes before any question text");
            return;
        }
        for (const AikenOption& option : pending_.options) {
            if (option.letter == letter) {
                report_.error_at(where, "duplicate option letter " + std::string(1, letter));
                return;
            }
        }
        if (text.empty()) {
            report_.error_at(where, "the text of option " + std::string(1, letter) + " is empty");
            return;
        }
        pending_.options.push_back(AikenOption{letter, std::string(text), where});
    }

    void finish_question(std::string_view answer, SourcePosition answer_where) {
        bool valid = true;
        if (pending_.options.size() < 2) {
            report_.error_at(pending_.where, "the question needs at least 2 options, has " +
                                                 std::to_string(pending_.options.size()));
            valid = false;
        }
        char letter = answer.size() == 1 ? answer[0] : 0;
        if (letter >= 'a' && letter <= 'z')
            letter = static_cast<char>(letter - 'a' + 'A');
        if (letter < 'A' || letter > 'Z') {
            report_.error_at(answer_where, "ANSWER must be one option letter, like \"ANSWER: B\", "
                                           "got " + in_quotes(answer.substr(0, 40)));
            return;
        }
        bool found = false;
        for (const AikenOption& option : pending_.options)
            found = found || option.letter == letter;
        if (!found && !pending_.options.empty()) {
            report_.error_at(answer_where, "ANSWER: " + std::string(1, letter) +
                                               " is not one of the options (" +
                                               letter_list(pending_.options) + ")");
            return;
        }
        if (!valid)
            return;
        if (bank_.questions.size() >= max_questions()) {
            if (!stopped_)
                report_.error_at(pending_.where, "too many questions: the limit is " +
                                                     std::to_string(max_questions()));
            stopped_ = true;
            return;
        }
        Question question;
        question.id = "q" + std::to_string(bank_.questions.size() + 1);
        question.type = QuestionType::SingleChoice;
        question.prompt = text_in(options_.language, pending_.prompt);
        QuestionSource where;
        where.question = pending_.where;
        for (const AikenOption& option : pending_.options) {
            Choice choice;
            choice.text = text_in(options_.language, option.text);
            choice.correct = option.letter == letter;
            question.choices.push_back(std::move(choice));
            where.choices.push_back(option.where);
        }
        assign_choice_ids(question);
        bank_.questions.push_back(std::move(question));
        map_.questions.push_back(std::move(where));
    }

    const ImportOptions& options_;
    DiagnosticCollector report_;
    Bank bank_;
    SourceMap map_;
    AikenQuestion pending_;
    bool stopped_ = false;   // after too many questions
};

} // namespace

ImportResult import_aiken(std::string_view text, std::string_view file_name,
                          const ImportOptions& options) {
    std::vector<Diagnostic> diagnostics;
    AikenImporter importer(file_name, options, diagnostics);
    if (!importer.check_input(text))
        return finish_import(Bank{}, SourceMap{}, std::move(diagnostics), file_name);
    const Source source(text);
    const Bank bank = importer.read(source);
    return finish_import(bank, importer.map(), std::move(diagnostics), file_name);
}

} // namespace imquiz
