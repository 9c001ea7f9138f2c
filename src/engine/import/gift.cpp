// Moodle GIFT -> bank. Written from the format's documentation (Moodle Docs, "GIFT format");
// what we read and what we skip is listed in docs/authoring.md.
#include "engine/import/import.h"

#include "engine/import/support.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace imquiz {
namespace {

using namespace import_support;

constexpr std::size_t not_found = std::string_view::npos;

// The id of a missing-word question's blank (GIFT gives it none).
constexpr const char* missing_word_blank_id = "blank";

// One GIFT item: consecutive lines that are neither blank nor comments, joined with '\n'.
struct Block {
    std::string text;
    std::vector<std::size_t> line_starts;      // where each line begins in `text`
    std::vector<std::size_t> source_offsets;   // where the same line begins in the source
};

struct GiftAnswer {
    char marker = 0;                          // '=' or '~'
    std::optional<double> weight;             // "%50%" -> 50
    std::string_view text;                    // raw: escapes still in
    std::optional<std::string_view> feedback; // raw, after '#'
    std::size_t offset = 0;                   // of the marker, in the block's text
};

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::size_t skip_spaces(std::string_view text, std::size_t from, std::size_t end) {
    while (from < end && is_space(text[from]))
        ++from;
    return from;
}

// The first `needle` in text[from, end) that is not escaped with a backslash; `end` if none.
std::size_t find_unescaped(std::string_view text, std::size_t from, std::size_t end,
                           std::string_view needle) {
    end = std::min(end, text.size());
    for (std::size_t i = from; i < end; ++i) {
        if (text[i] == '\\') {
            ++i;
            continue;
        }
        if (i + needle.size() <= end && text.compare(i, needle.size(), needle) == 0)
            return i;
    }
    return end;
}

// The first of `characters` in text[from, end) that is not escaped; `end` if none.
std::size_t find_unescaped_of(std::string_view text, std::size_t from, std::size_t end,
                              std::string_view characters) {
    end = std::min(end, text.size());
    for (std::size_t i = from; i < end; ++i) {
        if (text[i] == '\\') {
            ++i;
            continue;
        }
        if (characters.find(text[i]) != not_found)
            return i;
    }
    return end;
}

// GIFT text as shown: escapes resolved (\~ \= \# \{ \} \: \\ give the character, \n a line
// break; any other backslash stays), a line break of the source (and the spaces around it)
// becomes one space, and the ends are trimmed (unless `trim_ends` is false: the text beside a
// missing word keeps the spaces that separate it from the blank).
std::string gift_text(std::string_view raw, bool trim_ends = true) {
    std::string text;
    text.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        if (c == '\\' && i + 1 < raw.size()) {
            const char next = raw[i + 1];
            if (std::string_view("~=#{}:\\").find(next) != not_found) {
                text += next;
                ++i;
                continue;
            }
            if (next == 'n') {
                text += '\n';
                ++i;
                continue;
            }
            text += c;
            continue;
        }
        if (c == '\n') {
            while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
                text.pop_back();
            text += ' ';
            while (i + 1 < raw.size() && (raw[i + 1] == ' ' || raw[i + 1] == '\t'))
                ++i;
            continue;
        }
        text += c;
    }
    return trim_ends ? std::string(trim(text)) : text;
}

// A decimal number as GIFT writes it: optional sign, digits with an optional fraction, optional
// exponent. No "inf", "nan" or hex (strtod would take them).
std::optional<double> parse_number(std::string_view text) {
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-'))
        ++i;
    std::size_t digits = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        ++i, ++digits;
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            ++i, ++digits;
    }
    if (digits == 0)
        return std::nullopt;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
        std::size_t exponent_digits = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            ++i, ++exponent_digits;
        if (exponent_digits == 0)
            return std::nullopt;
    }
    if (i != text.size())
        return std::nullopt;
    // Only digits, sign, '.' and 'e' reach strtod, so the locale's decimal point never matters
    // for the integer part; the C locale (the default of every program) reads the '.'.
    return std::strtod(std::string(text).c_str(), nullptr);
}

std::string format_percent(double weight) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", weight);
    return buffer;
}

bool is_full_weight(const GiftAnswer& answer) {
    return answer.marker == '=' && (!answer.weight || *answer.weight == 100);
}

class GiftImporter {
public:
    GiftImporter(std::string_view file_name, const ImportOptions& options,
                 std::vector<Diagnostic>& diagnostics)
        : options_(options), report_(file_name, LoadLimits{}.max_diagnostics, diagnostics) {}

    bool check_input(std::string_view& text) {
        return import_support::check_input(text, "file", report_);
    }

    Bank read(const Source& source) {
        source_ = &source;
        start_bank(options_, report_.file(), "", bank_, report_);
        Block block;
        for (const SourceLine& line : source.lines()) {
            if (report_.full())
                break;
            const std::string_view content = trim(line.text);
            if (content.substr(0, 2) == "//")
                continue;   // a comment line; it neither ends nor belongs to an item
            if (content.empty()) {
                read_block(block);
                block = Block{};
                continue;
            }
            if (block.text.empty() && content.substr(0, 10) == "$CATEGORY:") {
                read_category(content.substr(10));
                continue;
            }
            if (!block.line_starts.empty())
                block.text += '\n';
            block.line_starts.push_back(block.text.size());
            block.source_offsets.push_back(line.offset);
            block.text += line.text;
        }
        read_block(block);
        use_markdown_if_any();
        return std::move(bank_);
    }

    const SourceMap& map() const { return map_; }

private:
    SourcePosition position(const Block& block, std::size_t index) const {
        auto after = std::upper_bound(block.line_starts.begin(), block.line_starts.end(), index);
        const std::size_t line = after == block.line_starts.begin()
                                     ? 0
                                     : static_cast<std::size_t>(after - block.line_starts.begin()) - 1;
        return source_->position_at(block.source_offsets[line] + (index - block.line_starts[line]));
    }

    // "$CATEGORY: $course$/top/Networks" tags the questions that follow with "networks".
    void read_category(std::string_view path) { category_tag_ = gift_category_tag(path); }

    void read_block(const Block& block) {
        if (block.text.empty() || report_.full() || stopped_)
            return;
        if (bank_.questions.size() >= max_questions()) {
            report_.error_at(position(block, 0), "too many questions: the limit is " +
                                                     std::to_string(max_questions()));
            stopped_ = true;
            return;
        }
        const std::string_view text = block.text;
        const std::size_t end = text.size();
        std::size_t position_in_block = skip_spaces(text, 0, end);
        const SourcePosition start = position(block, position_in_block);

        std::string title;
        if (text.compare(position_in_block, 2, "::") == 0) {
            const std::size_t title_end = find_unescaped(text, position_in_block + 2, end, "::");
            if (title_end == end) {
                report_.error_at(start,
                                 "the question title is not closed: expected \"::\" after it");
                return;
            }
            title = gift_text(text.substr(position_in_block + 2,
                                          title_end - position_in_block - 2));
            position_in_block = title_end + 2;
        }

        const std::size_t open = find_unescaped(text, position_in_block, end, "{");
        const std::size_t stray_close = find_unescaped(text, position_in_block, end, "}");
        if (stray_close < open) {
            report_.error_at(position(block, stray_close),
                             "\"}\" without an opening \"{\": write \\} for a literal brace");
            return;
        }
        if (open == end) {
            report_.warning_at(start, "description item (text without answers) is not supported: "
                                      "skipped");
            return;
        }
        const std::size_t close = find_unescaped(text, open + 1, end, "}");
        if (close == end) {
            report_.error_at(position(block, open),
                             "the answers opened here are not closed: expected \"}\"");
            return;
        }
        const std::size_t nested = find_unescaped(text, open + 1, close, "{");
        if (nested < close) {
            report_.error_at(position(block, nested),
                             "\"{\" inside the answers: write \\{ for a literal brace");
            return;
        }
        // Text after the answers: a missing-word question, its answers the one blank.
        const bool missing_word = !is_blank(text.substr(close + 1));
        if (missing_word) {
            const std::size_t second = find_unescaped_of(text, close + 1, end, "{}");
            if (second < end) {
                report_.error_at(position(block, second),
                                 "\"" + std::string(1, text[second]) +
                                     "\" after the answers: a GIFT question has one set of "
                                     "answers (write \\" + std::string(1, text[second]) +
                                     " for a literal brace)");
                return;
            }
        }

        Question question;
        QuestionSource where;
        where.question = start;
        std::vector<std::string> answer_feedbacks;
        std::string answer_kind;
        std::string general_feedback;
        if (!read_answers(block, open + 1, close, question, where, answer_feedbacks, answer_kind,
                          general_feedback))
            return;

        std::string prompt = read_prompt(block, position_in_block, open, !missing_word);
        if (missing_word) {
            if (!make_missing_word(block, open, question, where, answer_kind))
                return;
            prompt = std::string(trim(prompt + "{{" + missing_word_blank_id + "}}" +
                                      gift_text(text.substr(close + 1), false)));
        }
        if (prompt.empty()) {
            report_.error_at(start, "the question text is empty");
            return;
        }
        question.prompt = text_in(options_.language, std::move(prompt));

        // Per-answer feedback of true/false, numerical and short-answer questions has no field
        // in the bank: it becomes the explanation unless the author wrote one with ####.
        if (set_explanation(question, options_.language, general_feedback, answer_feedbacks, " "))
            report_.warning_at(start, "the answer feedback of a " + answer_kind +
                                          " question is dropped: the bank keeps only the #### "
                                          "general feedback, as the explanation");

        question.id = take_question_id(question_ids_, title, bank_.questions.size() + 1);
        if (!category_tag_.empty())
            question.tags.push_back(category_tag_);
        bank_.questions.push_back(std::move(question));
        map_.questions.push_back(std::move(where));
        markdown_questions_.push_back(prompt_was_markdown_);
    }

    // A [markdown] question makes the bank a Markdown bank ("textFormat": "markdown": a bank has
    // one text format). Its other questions' texts then get their Markdown characters escaped, so
    // that each still reads exactly as written: an asterisk stays an asterisk, a line break a
    // line break.
    void use_markdown_if_any() {
        if (std::find(markdown_questions_.begin(), markdown_questions_.end(), true) == markdown_questions_.end())
            return;
        bank_.text_format = TextFormat::Markdown;
        for (std::size_t i = 0; i < bank_.questions.size() && i < markdown_questions_.size(); ++i) {
            if (markdown_questions_[i]) continue;
            Question& question = bank_.questions[i];
            question.prompt = escape_markdown(question.prompt);
            question.explanation = escape_markdown(question.explanation);
            for (Choice& choice : question.choices) {
                choice.text = escape_markdown(choice.text);
                choice.feedback = escape_markdown(choice.feedback);
            }
            for (Blank& blank : question.blanks) {
                for (Choice& option : blank.options) {
                    option.text = escape_markdown(option.text);
                    option.feedback = escape_markdown(option.feedback);
                }
            }
        }
    }

    // The answers read as a question become a cloze question's one blank: choices (one of them
    // right), accepted texts or a number. False after a warning when they cannot be a blank.
    bool make_missing_word(const Block& block, std::size_t open, Question& question,
                           QuestionSource& where, const std::string& answer_kind) {
        Blank blank;
        blank.id = missing_word_blank_id;
        switch (question.type) {
        case QuestionType::SingleChoice:
        case QuestionType::MultipleChoice: {
            const auto right = std::count_if(question.choices.begin(), question.choices.end(),
                                             [](const Choice& choice) { return choice.correct; });
            if (right != 1) {
                report_.warning_at(position(block, open),
                                   "a missing word has one right answer, these answers have " +
                                       std::to_string(right) + ": skipped");
                return false;
            }
            blank.kind = Blank::Kind::Options;
            blank.options = std::move(question.choices);
            question.choices.clear();
            break;
        }
        case QuestionType::ShortText:
            blank.kind = Blank::Kind::Typed;
            blank.accepted_texts = std::move(question.accepted_texts);
            question.accepted_texts.clear();
            break;
        case QuestionType::Numeric:
            blank.kind = Blank::Kind::Numeric;
            blank.numeric_answer = question.numeric_answer;
            break;
        default:
            report_.warning_at(position(block, open), answer_kind +
                                                          " answers inside the text are not "
                                                          "supported (a missing word has choices, "
                                                          "accepted answers or a number): skipped");
            return false;
        }
        question.type = QuestionType::Cloze;
        question.blanks.push_back(std::move(blank));
        // Their positions were the question's choices' and answers': the blank's have other paths.
        where.choices.clear();
        where.accepted.clear();
        return true;
    }

    // The question text between the title and "{", its format prefix removed (its ends trimmed
    // unless `trim_end` is false: the text before a missing word keeps its space).
    std::string read_prompt(const Block& block, std::size_t begin, std::size_t end,
                            bool trim_end = true) {
        const std::string_view text = block.text;
        const std::size_t start = skip_spaces(text, begin, end);
        prompt_was_markdown_ = false;
        for (std::string_view format : {"[html]", "[markdown]", "[plain]", "[moodle]"}) {
            if (text.compare(start, format.size(), format) != 0)
                continue;
            prompt_was_markdown_ = format == "[markdown]";
            if (format == "[html]")
                report_.warning_at(position(block, start),
                                   "[html] text is shown as written, tags included: ImQuiz "
                                   "does not render HTML");
            begin = start + format.size();
            break;
        }
        return gift_text(text.substr(begin, end - begin), trim_end);
    }

    // Reads text[begin, end) (inside the braces) into `question`. False when the question is
    // skipped or wrong (already reported).
    bool read_answers(const Block& block, std::size_t begin, std::size_t end, Question& question,
                      QuestionSource& where, std::vector<std::string>& answer_feedbacks,
                      std::string& answer_kind, std::string& general_feedback) {
        const std::string_view text = block.text;
        const std::size_t first = skip_spaces(text, begin, end);
        const bool numerical = first < end && text[first] == '#' &&
                               text.compare(first, 4, "####") != 0;
        const std::size_t general =
            find_unescaped(text, numerical ? first + 1 : begin, end, "####");
        if (general < end)
            general_feedback = gift_text(text.substr(general + 4, end - general - 4));
        end = general;
        if (skip_spaces(text, begin, end) == end) {
            report_.warning_at(where.question,
                               "essay question (empty answers {}) is not supported: skipped");
            return false;
        }
        if (numerical) {
            answer_kind = "numerical";
            return read_numerical(block, first + 1, end, question, where, answer_feedbacks);
        }
        if (text[first] == '=' || text[first] == '~')
            return read_choices(block, first, end, question, where, answer_feedbacks,
                                answer_kind);
        answer_kind = "true/false";
        return read_true_false(block, first, end, question, answer_feedbacks);
    }

    // Splits "=a#feedback ~%50%b" into answers. False after reporting a problem. Any kind of
    // question takes at most as many answers as a bank's question takes choices; the rest are
    // only counted, so a hostile file cannot fill the memory with them.
    bool split_answers(const Block& block, std::size_t begin, std::size_t end,
                       std::vector<GiftAnswer>& answers, const QuestionSource& where) {
        const std::string_view text = block.text;
        std::size_t count = 0;
        std::size_t i = skip_spaces(text, begin, end);
        if (i < end && text[i] != '=' && text[i] != '~') {
            report_.error_at(position(block, i), "expected an answer starting with \"=\" or \"~\"");
            return false;
        }
        while (i < end) {
            GiftAnswer answer;
            answer.marker = text[i];
            answer.offset = i;
            const std::size_t next = find_unescaped_of(text, i + 1, end, "=~");
            std::size_t body = skip_spaces(text, i + 1, next);
            if (body < next && text[body] == '%') {
                const std::size_t weight_end = text.find('%', body + 1);
                if (weight_end == not_found || weight_end >= next) {
                    report_.error_at(
                        position(block, body),
                        "the weight is not closed: expected \"%\" after the percentage");
                    return false;
                }
                const std::string_view written = text.substr(body, weight_end - body + 1);
                answer.weight = parse_number(trim(written.substr(1, written.size() - 2)));
                if (!answer.weight || *answer.weight < -100 || *answer.weight > 100) {
                    report_.error_at(position(block, body),
                                     "invalid weight " + in_quotes(written) +
                                         ": expected a percentage from -100 to 100, like %50%");
                    return false;
                }
                body = weight_end + 1;
            }
            const std::size_t hash = find_unescaped(text, body, next, "#");
            answer.text = text.substr(body, hash - body);
            if (hash < next)
                answer.feedback = text.substr(hash + 1, next - hash - 1);
            if (++count <= max_choices_per_question())
                answers.push_back(answer);
            i = next;
        }
        if (count > max_choices_per_question()) {
            report_.error_at(where.question, "too many answers: " + std::to_string(count) +
                                                 " (the limit is " +
                                                 std::to_string(max_choices_per_question()) + ")");
            return false;
        }
        return true;
    }

    bool read_choices(const Block& block, std::size_t begin, std::size_t end, Question& question,
                      QuestionSource& where, std::vector<std::string>& answer_feedbacks,
                      std::string& answer_kind) {
        std::vector<GiftAnswer> answers;
        if (!split_answers(block, begin, end, answers, where))
            return false;
        const bool any_wrong_marker =
            std::any_of(answers.begin(), answers.end(),
                        [](const GiftAnswer& answer) { return answer.marker == '~'; });
        if (!any_wrong_marker) {
            const bool any_arrow = std::any_of(answers.begin(), answers.end(), [](const GiftAnswer& answer) {
                return find_unescaped(answer.text, 0, answer.text.size(), "->") < answer.text.size();
            });
            if (any_arrow) {
                answer_kind = "matching";
                return read_matching(block, answers, question, where, answer_feedbacks);
            }
            answer_kind = "short answer";
            return read_short_answer(block, answers, question, where, answer_feedbacks);
        }
        answer_kind = "multiple choice";
        bool valid = true;
        int right = 0;
        bool single_full_right = false;
        for (const GiftAnswer& answer : answers) {
            Choice choice;
            std::string text = gift_text(answer.text);
            if (text.empty()) {
                report_.error_at(position(block, answer.offset), "the answer text is empty");
                valid = false;
                continue;
            }
            choice.text = text_in(options_.language, std::move(text));
            // "=" is right unless weighted 0 or less; "~" is wrong unless weighted above 0.
            choice.correct = answer.marker == '=' ? !answer.weight || *answer.weight > 0
                                                  : answer.weight && *answer.weight > 0;
            if (choice.correct) {
                ++right;
                single_full_right = is_full_weight(answer);
            }
            if (answer.feedback) {
                std::string feedback = gift_text(*answer.feedback);
                if (!feedback.empty())
                    choice.feedback = text_in(options_.language, std::move(feedback));
            }
            question.choices.push_back(std::move(choice));
            where.choices.push_back(position(block, answer.offset));
        }
        if (!valid)
            return false;
        if (right == 0) {
            report_.error_at(where.question, "the multiple choice question has no right answer: "
                                             "mark one with \"=\" or weight it like \"~%50%\"");
            return false;
        }
        // One "=" answer (at full weight) is a single choice; weights or several right answers
        // make a multiple choice, so "~%100%a ~b" stays multiple choice with one right answer.
        question.type = right == 1 && single_full_right ? QuestionType::SingleChoice
                                                        : QuestionType::MultipleChoice;
        assign_choice_ids(question);
        return true;
    }

    // "=item -> answer" per pair; "= -> answer" (no item) is an answer no item goes with (a
    // distractor). Items with the same answer text share that answer. GIFT gives no ids: items
    // and answers get them from their texts, as choices do.
    bool read_matching(const Block& block, const std::vector<GiftAnswer>& answers, Question& question,
                       QuestionSource& where, std::vector<std::string>& answer_feedbacks) {
        question.type = QuestionType::Matching;
        std::vector<std::size_t> answer_of_item;
        for (const GiftAnswer& answer : answers) {
            const std::size_t arrow = find_unescaped(answer.text, 0, answer.text.size(), "->");
            if (arrow >= answer.text.size()) {
                report_.error_at(position(block, answer.offset),
                                 "every answer of a matching question pairs an item with its answer, like \"=item -> answer\"");
                return false;
            }
            std::string item_text = gift_text(answer.text.substr(0, arrow));
            std::string answer_text = gift_text(answer.text.substr(arrow + 2));
            if (answer_text.empty()) {
                report_.error_at(position(block, answer.offset), "the answer after \"->\" is empty");
                return false;
            }
            std::size_t index = 0;
            while (index < question.choices.size() && text_of(question.choices[index].text) != answer_text) ++index;
            if (index == question.choices.size()) {
                Choice choice;
                choice.text = text_in(options_.language, std::move(answer_text));
                question.choices.push_back(std::move(choice));
                where.choices.push_back(position(block, answer.offset));
            }
            if (answer.feedback) {
                std::string feedback = gift_text(*answer.feedback);
                if (!feedback.empty()) answer_feedbacks.push_back(std::move(feedback));
            }
            if (item_text.empty()) continue;  // a distractor
            MatchItem item;
            item.text = text_in(options_.language, std::move(item_text));
            question.match_items.push_back(std::move(item));
            answer_of_item.push_back(index);
        }
        if (question.match_items.size() < 2) {
            report_.error_at(where.question, "a matching question needs at least 2 items (\"=item -> answer\")");
            return false;
        }
        assign_matching_ids(question, answer_of_item);
        return true;
    }

    static const std::string& text_of(const LocalizedText& text) {
        return text.is_plain() || text.translations().empty() ? text.plain() : text.translations().begin()->second;
    }

    bool read_short_answer(const Block& block, const std::vector<GiftAnswer>& answers,
                           Question& question, QuestionSource& where,
                           std::vector<std::string>& answer_feedbacks) {
        question.type = QuestionType::ShortText;
        for (const GiftAnswer& answer : answers) {
            std::string text = gift_text(answer.text);
            if (text.empty()) {
                report_.error_at(position(block, answer.offset), "the answer text is empty");
                return false;
            }
            if (!is_full_weight(answer)) {
                report_.warning_at(position(block, answer.offset),
                                   "short answer with weight " + format_percent(*answer.weight) +
                                       "% is dropped: only fully right answers are accepted");
                continue;
            }
            question.accepted_texts.push_back(text_in(options_.language, std::move(text)));
            where.accepted.push_back(position(block, answer.offset));
            if (answer.feedback) {
                std::string feedback = gift_text(*answer.feedback);
                if (!feedback.empty())
                    answer_feedbacks.push_back(std::move(feedback));
            }
        }
        if (question.accepted_texts.empty()) {
            report_.error_at(where.question, "the short answer question has no fully right answer "
                                             "(\"=\" without a weight, or \"=%100%\")");
            return false;
        }
        return true;
    }

    bool read_true_false(const Block& block, std::size_t begin, std::size_t end,
                         Question& question, std::vector<std::string>& answer_feedbacks) {
        const std::string_view text = block.text;
        std::vector<std::string_view> parts;
        std::size_t part_start = begin;
        while (true) {
            const std::size_t hash = find_unescaped(text, part_start, end, "#");
            parts.push_back(text.substr(part_start, hash - part_start));
            if (hash == end)
                break;
            part_start = hash + 1;
        }
        std::string word(trim(parts[0]));
        for (char& c : word)
            if (c >= 'a' && c <= 'z')
                c = static_cast<char>(c - 'a' + 'A');
        if (word == "T" || word == "TRUE") {
            question.true_false_answer = true;
        } else if (word == "F" || word == "FALSE") {
            question.true_false_answer = false;
        } else {
            report_.error_at(position(block, begin),
                             "unknown answers " + in_quotes(trim(parts[0]).substr(0, 40)) +
                                 ": expected answers starting with \"=\" or \"~\", T, TRUE, F or "
                                 "FALSE, or \"#\" for a number");
            return false;
        }
        if (parts.size() > 3) {
            report_.error_at(position(block, begin), "a true/false answer takes at most two "
                                                     "feedbacks (#for a wrong answer#for a right "
                                                     "one)");
            return false;
        }
        question.type = QuestionType::TrueFalse;
        for (std::size_t i = 1; i < parts.size(); ++i) {
            std::string feedback = gift_text(parts[i]);
            if (!feedback.empty())
                answer_feedbacks.push_back(std::move(feedback));
        }
        return true;
    }

    // After the leading '#': "3.5:0.1", "1..5", "3.5", or several "=..." answers.
    bool read_numerical(const Block& block, std::size_t begin, std::size_t end,
                        Question& question, QuestionSource& where,
                        std::vector<std::string>& answer_feedbacks) {
        const std::string_view text = block.text;
        question.type = QuestionType::Numeric;
        const std::size_t first = skip_spaces(text, begin, end);
        if (first < end && (text[first] == '=' || text[first] == '~')) {
            std::vector<GiftAnswer> answers;
            if (!split_answers(block, first, end, answers, where))
                return false;
            auto chosen = std::find_if(answers.begin(), answers.end(), is_full_weight);
            if (chosen == answers.end()) {
                report_.error_at(where.question, "the numerical question has no fully right answer "
                                                 "(\"=\" without a weight, or \"=%100%\")");
                return false;
            }
            if (!read_number_answer(block, chosen->offset + 1, chosen->text,
                                    question.numeric_answer))
                return false;
            if (answers.size() > 1)
                report_.warning_at(position(block, answers[1].offset),
                                   "the numerical question has " + std::to_string(answers.size()) +
                                       " answers: only the first fully right one is kept");
            if (chosen->feedback) {
                std::string feedback = gift_text(*chosen->feedback);
                if (!feedback.empty())
                    answer_feedbacks.push_back(std::move(feedback));
            }
            return true;
        }
        const std::size_t hash = find_unescaped(text, first, end, "#");
        if (!read_number_answer(block, first, text.substr(first, hash - first),
                                question.numeric_answer))
            return false;
        if (hash < end) {
            std::string feedback = gift_text(text.substr(hash + 1, end - hash - 1));
            if (!feedback.empty())
                answer_feedbacks.push_back(std::move(feedback));
        }
        return true;
    }

    // "3.5:0.1" (value:tolerance), "1..5" (range) or "3.5" (exact).
    bool read_number_answer(const Block& block, std::size_t offset, std::string_view written,
                            NumericAnswer& answer) {
        const SourcePosition where = position(block, skip_spaces(block.text, offset,
                                                                 offset + written.size()));
        written = trim(written);
        const auto number = [&](std::string_view part) -> std::optional<double> {
            auto value = parse_number(trim(part));
            if (!value) {
                report_.error_at(where, "invalid numerical answer " +
                                            in_quotes(written.substr(0, 40)) +
                                            ": expected a number like 3.5, 3.5:0.1 or 1..5");
                return std::nullopt;
            }
            if (!std::isfinite(*value)) {
                report_.error_at(where, "the number " + in_quotes(trim(part).substr(0, 40)) +
                                            " is out of range");
                return std::nullopt;
            }
            return value;
        };
        if (const std::size_t dots = written.find(".."); dots != not_found) {
            auto low = number(written.substr(0, dots));
            if (!low)
                return false;
            auto high = number(written.substr(dots + 2));
            if (!high)
                return false;
            if (*low > *high) {
                report_.error_at(where, "the range " + in_quotes(written.substr(0, 40)) +
                                            " starts above its end");
                return false;
            }
            answer.form = NumericAnswer::Form::Range;
            answer.min = *low;
            answer.max = *high;
            return true;
        }
        const std::size_t colon = written.find(':');
        auto value = number(written.substr(0, colon));
        if (!value)
            return false;
        answer.form = NumericAnswer::Form::ValueWithTolerance;
        answer.value = *value;
        answer.tolerance = 0;
        if (colon != not_found) {
            auto tolerance = number(written.substr(colon + 1));
            if (!tolerance)
                return false;
            if (*tolerance < 0) {
                report_.error_at(where, "the tolerance must not be negative");
                return false;
            }
            answer.tolerance = *tolerance;
        }
        return true;
    }

    const ImportOptions& options_;
    DiagnosticCollector report_;
    const Source* source_ = nullptr;
    Bank bank_;
    SourceMap map_;
    UniqueIds question_ids_;
    bool stopped_ = false;   // after too many questions
    std::string category_tag_;
    bool prompt_was_markdown_ = false;      // the question being read had [markdown]
    std::vector<bool> markdown_questions_;  // per question of bank_: it had [markdown]
};

} // namespace

ImportResult import_gift(std::string_view text, std::string_view file_name,
                         const ImportOptions& options) {
    std::vector<Diagnostic> diagnostics;
    GiftImporter importer(file_name, options, diagnostics);
    if (!importer.check_input(text))
        return finish_import(Bank{}, SourceMap{}, std::move(diagnostics), file_name);
    const Source source(text);
    const Bank bank = importer.read(source);
    return finish_import(bank, importer.map(), std::move(diagnostics), file_name);
}

} // namespace imquiz
