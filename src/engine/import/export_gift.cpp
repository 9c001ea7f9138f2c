// Bank -> Moodle GIFT, in the subset import_gift() reads back to the same bank.
#include "engine/import/import.h"

#include "engine/import/support.h"

#include <algorithm>
#include <cstdio>

namespace imquiz {
namespace {

using namespace import_support;

// Every character GIFT gives a meaning, escaped; a line break as \n.
std::string escaped(std::string_view text) {
    std::string result;
    result.reserve(text.size());
    for (char c : text) {
        if (c == '\n') {
            result += "\\n";
            continue;
        }
        if (c == '\r')
            continue;
        if (std::string_view("~=#{}:\\").find(c) != std::string_view::npos)
            result += '\\';
        result += c;
    }
    return result;
}

// An answer line. A text that starts with '%' would be read as a weight, so it gets an explicit
// one (%100% for right, %0% for wrong), which reads back the same.
std::string answer_line(char marker, std::string weight, std::string_view text,
                        std::string_view feedback) {
    if (weight.empty() && !text.empty() && text.front() == '%')
        weight = marker == '=' ? "%100%" : "%0%";
    std::string line(1, marker);
    line += weight + escaped(text);
    if (!feedback.empty())
        line += "#" + escaped(feedback);
    return line + "\n";
}

// "// " before every line of a free text, so all of it stays a comment.
std::string comment(std::string_view label, std::string_view text) {
    std::string result;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        result += "// " + std::string(label) + std::string(text.substr(start, end - start)) + "\n";
        label = "";
        start = end + 1;
    }
    return result;
}

class GiftWriter : ExportWriter {
public:
    GiftWriter(const Bank& bank, std::string_view language, std::vector<Diagnostic>* losses)
        : ExportWriter(bank, language, losses) {}

    std::string write() {
        out_ += comment("ImQuiz bank ", in_quotes(bank_.id) + ": " + text(bank_.title));
        if (!bank_.description.empty())
            out_ += comment("", text(bank_.description));
        out_ += "// Texts in " + in_quotes(language_) +
                ". Read back with: quizc import --from gift FILE --lang " + std::string(language_) +
                " --id " + bank_.id + "\n\n";
        if (bank_.languages.size() > 1)
            lose("languages", "GIFT holds one language: only the " + in_quotes(language_) +
                                  " texts are exported");
        if (!bank_.notes.empty())
            lose("notes", "GIFT has no author notes: they are left out");
        const Settings defaults;
        const Settings& settings = bank_.settings;
        if (settings.shuffle_choices != defaults.shuffle_choices ||
            settings.shuffle_questions != defaults.shuffle_questions ||
            settings.pool_size != defaults.pool_size ||
            settings.pass_percent != defaults.pass_percent ||
            settings.partial_credit != defaults.partial_credit)
            lose("settings", "GIFT has no bank settings: they are left out");
        for (std::size_t i = 0; i < bank_.questions.size(); ++i)
            write_question(bank_.questions[i], "questions[" + std::to_string(i) + "]");
        return std::move(out_);
    }

private:
    void write_category(const Question& question, const std::string& path) {
        const std::string tag = question.tags.empty() ? std::string() : question.tags.front();
        if (question.tags.size() > 1)
            lose(path + ".tags", "GIFT keeps one category per question: tags after the first "
                                 "are left out");
        if (!tag.empty() && gift_category_tag(tag) != tag)
            lose(path + ".tags[0]", "the tag " + in_quotes(tag) + " is read back from GIFT as " +
                                        in_quotes(gift_category_tag(tag)));
        if (tag == category_)
            return;
        category_ = tag;
        out_ += "$CATEGORY: " + tag + "\n\n";
    }

    void write_question(const Question& question, const std::string& path) {
        if (question.type == QuestionType::Ordering) {
            lose(path, "GIFT has no ordering questions: the question is left out");
            return;
        }
        // A cloze question's text around its one blank: GIFT writes the answers in its place.
        std::vector<ClozePiece> pieces;
        if (question.type == QuestionType::Cloze) {
            pieces = split_cloze(text(question.prompt));
            if (question.blanks.size() != 1 || pieces.size() != 2) {
                lose(path, "GIFT's missing-word questions have one blank: a cloze question with " +
                               std::to_string(question.blanks.size()) +
                               " blanks is left out");
                return;
            }
        }
        if (question.type == QuestionType::Matching) {
            for (const MatchItem& item : question.match_items)
                if (text(item.text).find("->") != std::string::npos) {
                    lose(path, "a matching item's text holds \"->\", which GIFT reads as the pair's arrow: the question is left out");
                    return;
                }
        }
        write_category(question, path);
        std::string prompt = escaped(pieces.empty() ? text(question.prompt) : pieces[0].text);
        if (markdown_) {
            prompt = "[markdown]" + prompt;   // every text of a Markdown bank is Markdown
        } else {
            for (std::string_view format : {"[html]", "[markdown]", "[plain]", "[moodle]"}) {
                if (prompt.compare(0, format.size(), format) == 0) {
                    prompt = "[plain]" + prompt;   // else the import would take it for a format
                    break;
                }
            }
        }
        // The text before a missing word ends where its answers start: no space is added.
        out_ += "::" + question.id + "::" + prompt + (pieces.empty() ? " {\n" : "{\n");
        switch (question.type) {
        case QuestionType::SingleChoice:
        case QuestionType::MultipleChoice:
            write_choices(question.choices, question.type == QuestionType::SingleChoice, path + ".choices");
            break;
        case QuestionType::TrueFalse: out_ += question.true_false_answer ? "TRUE\n" : "FALSE\n"; break;
        case QuestionType::Numeric: write_number(question.numeric_answer, question.unit, path); break;
        case QuestionType::ShortText: write_accepted(question.accepted_texts, path + ".accept"); break;
        case QuestionType::Matching: write_matching(question, path); break;
        case QuestionType::Ordering: break;  // left out above
        case QuestionType::Cloze: write_blank(question.blanks[0], pieces[1].text, path + ".blanks[0]"); break;
        }
        if (!question.explanation.empty())
            out_ += "####" + escaped(text(question.explanation)) + "\n";
        out_ += "}" + (pieces.empty() ? std::string() : escaped(pieces[1].text)) + "\n\n";
    }

    // `#value`, `#value:tolerance` or `#min..max`.
    void write_number(const NumericAnswer& answer, const LocalizedText& unit, const std::string& path) {
        if (answer.form == NumericAnswer::Form::Range)
            out_ += "#" + shortest_number(answer.min) + ".." + shortest_number(answer.max) + "\n";
        else if (answer.tolerance == 0)
            out_ += "#" + shortest_number(answer.value) + "\n";
        else
            out_ += "#" + shortest_number(answer.value) + ":" + shortest_number(answer.tolerance) + "\n";
        if (!unit.empty())
            lose(path + ".unit", "GIFT has no units: the unit is left out");
    }

    // A missing word's answers: the blank's options as a single choice's, its accepted texts as a
    // short answer's, or its number. `after`: the prompt's text after the blank.
    void write_blank(const Blank& blank, const std::string& after, const std::string& path) {
        const char* read_back_as = "";
        switch (blank.kind) {
        case Blank::Kind::Options:
            write_choices(blank.options, true, path + ".choices");
            read_back_as = "single choice";
            break;
        case Blank::Kind::Typed:
            write_accepted(blank.accepted_texts, path + ".accept");
            read_back_as = "short answer";
            break;
        case Blank::Kind::Numeric:
            write_number(blank.numeric_answer, blank.unit, path);
            read_back_as = "numerical";
            break;
        }
        if (blank.id != "blank")
            lose(path + ".id", "GIFT has no blank ids: importing this file names the blank "
                               "\"blank\", so learners' progress on the question would not carry "
                               "over");
        if (!blank.feedback.empty())
            lose(path + ".feedback", "GIFT has no feedback for a blank: it is left out");
        if (is_blank(after))
            lose(path, std::string("the blank ends the prompt: GIFT reads answers at the end of the "
                                   "text as a ") + read_back_as + " question, not a missing word");
    }

    // "=item -> answer" per item, "= -> answer" for an answer no item goes with.
    void write_matching(const Question& question, const std::string& path) {
        for (const MatchItem& item : question.match_items) {
            const Choice* answer = question.find_choice(item.answer_id);
            out_ += "=" + escaped(text(item.text)) + " -> " + escaped(answer ? text(answer->text) : "") + "\n";
            if (!item.feedback.empty())
                lose(path + ".items", "GIFT has no feedback per matching item: it is left out");
        }
        for (const Choice& answer : question.choices) {
            const bool used = std::any_of(question.match_items.begin(), question.match_items.end(),
                                          [&](const MatchItem& item) { return item.answer_id == answer.id; });
            if (!used) out_ += "= -> " + escaped(text(answer.text)) + "\n";
        }
    }

    // `path`: the bank field of the choices (a question's or a blank's).
    void write_choices(const std::vector<Choice>& choices, bool single, const std::string& path) {
        std::size_t right = 0;
        for (const Choice& choice : choices)
            right += choice.correct ? 1 : 0;
        // Single choice: "=" for the right answer. Multiple choice: the right answers share
        // 100% and each wrong one takes it all away, as Moodle grades "all or nothing".
        // Five decimals, as Moodle lists its grades (33.33333, 14.28571).
        char weight[32];
        std::snprintf(weight, sizeof weight, "%.5f",
                      100.0 / static_cast<double>(right == 0 ? 1 : right));
        std::string right_weight = weight;
        while (right_weight.back() == '0')
            right_weight.pop_back();
        if (right_weight.back() == '.')
            right_weight.pop_back();
        right_weight = "%" + right_weight + "%";
        for (const Choice& choice : choices) {
            const std::string& choice_text = text(choice.text);
            const std::string& feedback = text(choice.feedback);
            if (single)
                out_ += answer_line(choice.correct ? '=' : '~', "", choice_text, feedback);
            else
                out_ += answer_line('~', choice.correct ? right_weight : "%-100%", choice_text,
                                    feedback);
        }
        // GIFT has no choice ids: the import makes them from the texts again.
        if (!choice_ids_read_back(choices, language_, bank_.default_language))
            lose(path, "GIFT has no choice ids: importing this file makes them from the texts, "
                       "so learners' progress on the question would not carry over");
    }

    // Every translation of every accepted answer (all of them count as right in the bank).
    void write_accepted(const std::vector<LocalizedText>& accepted_texts, const std::string& path) {
        for (const std::string& answer :
             every_accepted_text(accepted_texts, language_, bank_.default_language)) {
            if (answer.find("->") != std::string::npos)
                lose(path, "the answer " + in_quotes(answer) +
                               " contains \"->\": GIFT reads it as a matching question");
            out_ += answer_line('=', "", answer, "");
        }
    }
};

} // namespace

std::string export_gift(const Bank& bank, std::string_view language,
                        std::vector<Diagnostic>* losses) {
    return GiftWriter(bank, language, losses).write();
}

} // namespace imquiz
