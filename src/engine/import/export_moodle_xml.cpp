// Bank -> Moodle XML, in the shape import_moodle_xml() reads back to the same bank. Written as a
// string (no libxml2), so every build has it, the web quizc too. The shape follows Moodle's own
// export (question/format/xml); what is written for each type is listed in docs/authoring.md.
#include "engine/import/import.h"

#include "engine/import/support.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

namespace imquiz {
namespace {

using namespace import_support;

// Character data (and attribute values: quotes too). A carriage return becomes a reference,
// since a parser reads a literal one as a line feed. The control characters XML 1.0 cannot hold
// at all are left out; `dropped` says whether there were any.
std::string xml_escaped(std::string_view text, bool* dropped = nullptr) {
    std::string result;
    result.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': result += "&amp;"; break;
        case '<': result += "&lt;"; break;
        case '>': result += "&gt;"; break;
        case '"': result += "&quot;"; break;
        case '\r': result += "&#13;"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') {
                if (dropped != nullptr)
                    *dropped = true;
                continue;
            }
            result += c;
        }
    }
    return result;
}

// An XML comment cannot hold "--" nor end with "-".
std::string xml_comment(std::string_view text) {
    std::string result;
    for (char c : xml_escaped(text)) {
        if (c == '-' && !result.empty() && result.back() == '-')
            result += ' ';
        result += c;
    }
    return "<!-- " + result + " -->\n";
}

// Inside an embedded answer ({1:TYPE:...}) '}', '#' and '~' are Moodle's marks: the importer reads
// them back from "\}", "\#", "\~".
std::string embedded_escaped(std::string_view text) {
    std::string result;
    for (char c : text) {
        if (c == '}' || c == '#' || c == '~')
            result += '\\';
        result += c;
    }
    return result;
}

// Whether a text holds what Moodle reads as an embedded answer: "{", digits, ":", a TYPE, ":".
bool has_embedded_answer(std::string_view text) {
    for (std::size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
        std::size_t i = open + 1;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            ++i;
        if (i >= text.size() || text[i] != ':')
            continue;
        const std::size_t type_begin = ++i;
        while (i < text.size() && ((text[i] >= 'A' && text[i] <= 'Z') || text[i] == '_'))
            ++i;
        if (i > type_begin && i < text.size() && text[i] == ':')
            return true;
    }
    return false;
}

// Moodle's grades are percentages with up to seven decimals: 33.3333333 three times is 100 as
// near as Moodle compares.
std::string percent(double value) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.7f", value);
    std::string written = buffer;
    while (written.back() == '0')
        written.pop_back();
    if (written.back() == '.')
        written.pop_back();
    return written;
}

// The bank loader's bound on maxTries (bank_loader.cpp), which the importer keeps to.
constexpr int most_tries = 10;

// A question's <penalty>: a third as Moodle writes its default (seven decimals), which the
// importer reads back as the bank's default tryPenalty; any other share as the shortest spelling
// that reads back the same.
std::string penalty(double share) {
    return std::abs(share - 1.0 / 3.0) < 5e-8 ? "0.3333333" : shortest_number(share);
}

// Whether the importer's collapsing of spaces leaves `text` as it is.
bool has_collapsed_spaces(std::string_view text) {
    if (text.empty())
        return true;
    if (text.front() == ' ' || text.back() == ' ')
        return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
            (c == ' ' && i + 1 < text.size() && text[i + 1] == ' '))
            return false;
    }
    return true;
}

// The plain text whose Markdown escape (what the importer does to a matching answer or a unit of
// a Markdown bank) is `markdown`; none when there is no such text.
std::optional<std::string> unescaped_markdown(const std::string& markdown) {
    if (escape_markdown(markdown) == markdown)
        return markdown;
    std::string plain;
    for (std::size_t i = 0; i < markdown.size(); ++i) {
        if (markdown[i] == '\\' && i + 1 < markdown.size()) {
            const char next = markdown[i + 1];
            if (next == '\n' || (next > ' ' && next < 0x7F && !std::isalnum(static_cast<unsigned char>(next)))) {
                plain += next;
                ++i;
                continue;
            }
        }
        plain += markdown[i];
    }
    if (escape_markdown(plain) == markdown)
        return plain;
    return std::nullopt;
}

class MoodleXmlWriter : ExportWriter {
public:
    MoodleXmlWriter(const Bank& bank, std::string_view language, std::vector<Diagnostic>* losses)
        : ExportWriter(bank, language, losses) {}

    std::string write() {
        out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
        out_ += xml_comment("ImQuiz bank " + in_quotes(bank_.id) + ": " + text(bank_.title));
        if (!bank_.description.empty())
            out_ += xml_comment(text(bank_.description));
        out_ += xml_comment("Texts in " + in_quotes(language_) +
                            ". Read back with: quizc import --from moodle-xml FILE --lang " +
                            std::string(language_) + " --id " + bank_.id);
        out_ += "<quiz>\n";
        lose_bank_fields();
        for (std::size_t i = 0; i < bank_.questions.size(); ++i)
            write_question(bank_.questions[i], "questions[" + std::to_string(i) + "]");
        out_ += "</quiz>\n";
        return std::move(out_);
    }

private:
    // A bank text as an element's character data, reporting characters XML cannot hold.
    std::string escaped(std::string_view value, const std::string& path) {
        bool dropped = false;
        std::string result = xml_escaped(value, &dropped);
        if (dropped)
            lose(path, "XML cannot hold control characters: they are left out");
        return result;
    }

    // <element format="..."><text>...</text></element>, the text in this bank's format.
    std::string formatted(const char* element, std::string_view value, const std::string& path,
                          const std::string& inside = "") {
        return std::string("<") + element + " format=\"" + format_ + "\"><text>" +
               escaped(value, path) + "</text>" + inside + "</" + element + ">";
    }

    void lose_bank_fields() {
        if (bank_.languages.size() > 1)
            lose("languages", "Moodle XML holds one language here: only the " + in_quotes(language_) +
                                  " texts are exported");
        if (!bank_.notes.empty())
            lose("notes", "Moodle XML has no author notes: they are left out");
        if (!bank_.images.empty())
            lose("images", "the images are not embedded: the texts name their files (" +
                               bank_.images.front().source +
                               "), which quizc import reads back beside the bank but Moodle does not");
        const Settings defaults;
        const Settings& settings = bank_.settings;
        if (settings.shuffle_questions != defaults.shuffle_questions)
            lose("settings.shuffleQuestions", "Moodle XML has no question order setting: it is left out");
        if (settings.pool_size != defaults.pool_size)
            lose("settings.poolSize", "Moodle XML has no pool size: it is left out");
        if (settings.pass_percent != defaults.pass_percent)
            lose("settings.passPercent", "Moodle XML has no pass mark: it is left out");
        bool graded_in_parts = false, shuffled = false;
        for (const Question& question : bank_.questions) {
            graded_in_parts |= question.type == QuestionType::MultipleChoice ||
                               question.type == QuestionType::Matching ||
                               question.type == QuestionType::Ordering ||
                               question.type == QuestionType::Cloze;
            shuffled |= question.type == QuestionType::SingleChoice ||
                        question.type == QuestionType::MultipleChoice ||
                        std::any_of(question.blanks.begin(), question.blanks.end(),
                                    [](const Blank& blank) { return blank.kind == Blank::Kind::Options; });
        }
        if (settings.partial_credit && !graded_in_parts)
            lose("settings.partialCredit", "no question here is graded in parts in Moodle: "
                                           "importing this file turns partialCredit off");
        if (!settings.partial_credit && graded_in_parts)
            lose("settings.partialCredit", "Moodle grades multiple choice, matching, ordering and "
                                           "cloze questions in parts: importing this file turns "
                                           "partialCredit on");
        if (settings.max_tries != defaults.max_tries)
            lose("settings.maxTries", "Moodle XML has no tries setting: Moodle gives a question one "
                                      "try per hint plus one, and so does importing this file");
        if (settings.try_penalty != defaults.try_penalty)
            lose("settings.tryPenalty", "Moodle XML has no bank-wide penalty: it is written as each "
                                        "question's <penalty>, which importing this file keeps on "
                                        "questions with hints");
        if (settings.mode == Settings::Mode::Exam)
            lose("settings.mode", "a Moodle question file has no quiz mode (a Moodle quiz chooses its "
                                  "question behaviour): importing this file gives a practice bank");
        // A Moodle quiz has both (its timing and its attempts allowed), set on the quiz, not the questions.
        if (settings.time_limit_minutes > 0)
            lose("settings.timeLimitMinutes", "a Moodle question file has no time limit (set it on the Moodle "
                                              "quiz): it is left out");
        if (settings.max_attempts)
            lose("settings.maxAttempts", "a Moodle question file has no attempts allowed (set them on the "
                                         "Moodle quiz): it is left out");
        if (!bank_.feedback_ranges.empty())
            lose("feedbackRanges", "a Moodle question file has no overall feedback (a Moodle quiz "
                                   "has it): the score ranges are left out");
        if (settings.shuffle_choices && !shuffled)
            lose("settings.shuffleChoices", "only choice questions and blanks say shuffling in "
                                            "Moodle XML, and this bank has none: it is left out");
    }

    // A category before the first question of each tag, as the importer reads tags back: the
    // first tag when it is a category's slug, else an empty category (no tag) and every tag in
    // <tags>.
    std::string write_category(const Question& question) {
        std::string category;
        if (!question.tags.empty() && gift_category_tag(question.tags.front()) == question.tags.front())
            category = question.tags.front();
        if (category != category_) {
            category_ = category;
            out_ += "  <question type=\"category\">\n    <category><text>" +
                    (category.empty() ? std::string() : "$course$/top/" + xml_escaped(category)) +
                    "</text></category>\n  </question>\n";
        }
        return category;
    }

    void write_question(const Question& question, const std::string& path) {
        std::string prompt = text(question.prompt);
        if (question.type == QuestionType::Cloze) {
            std::optional<std::string> embedded = cloze_text(question, path);
            if (!embedded)
                return;
            prompt = std::move(*embedded);
        }
        const std::string category = write_category(question);
        static const char* const types[] = {"multichoice", "multichoice", "truefalse", "numerical",
                                            "shortanswer", "matching", "ordering", "cloze"};
        out_ += std::string("  <question type=\"") + types[static_cast<int>(question.type)] + "\">\n";
        out_ += "    <name><text>" + xml_escaped(question.id) + "</text></name>\n";
        out_ += "    " + formatted("questiontext", prompt, path + ".prompt") + "\n";
        out_ += "    " + formatted("generalfeedback", text(question.explanation), path + ".explanation") + "\n";
        out_ += "    <defaultgrade>1</defaultgrade>\n";
        out_ += "    <penalty>" + penalty(try_penalty(bank_, question)) + "</penalty>\n";
        switch (question.type) {
        case QuestionType::SingleChoice:
        case QuestionType::MultipleChoice: write_choices(question, path); break;
        case QuestionType::TrueFalse:
            out_ += std::string("    <answer fraction=\"") + (question.true_false_answer ? "100" : "0") +
                    "\" format=\"moodle_auto_format\"><text>true</text></answer>\n";
            out_ += std::string("    <answer fraction=\"") + (question.true_false_answer ? "0" : "100") +
                    "\" format=\"moodle_auto_format\"><text>false</text></answer>\n";
            break;
        case QuestionType::Numeric: write_numerical(question, path); break;
        case QuestionType::ShortText:
            out_ += "    <usecase>0</usecase>\n";
            for (const std::string& answer : accepted(question.accepted_texts))
                out_ += "    <answer fraction=\"100\" format=\"moodle_auto_format\"><text>" +
                        escaped(answer, path + ".accept") + "</text></answer>\n";
            break;
        case QuestionType::Matching: write_matching(question, path); break;
        case QuestionType::Ordering: write_ordering(question, path); break;
        case QuestionType::Cloze: break;   // its answers are in its text
        }
        write_hints(question, path);
        write_tags(question, category, path);
        out_ += "  </question>\n";
    }

    // Moodle's hints, after the answers as Moodle writes them. Its interactive behaviour shows one
    // after each try that is not right: a question gets one try per hint plus one, each try after
    // the first costs the <penalty>, and a hint costs nothing of its own.
    void write_hints(const Question& question, const std::string& path) {
        for (std::size_t i = 0; i < question.hints.size(); ++i) {
            const Hint& hint = question.hints[i];
            const std::string hint_path = path + ".hints[" + std::to_string(i) + "]";
            out_ += "    " + formatted("hint", text(hint.text), hint_path + ".text") + "\n";
            if (hint.cost > 0)
                lose(hint_path + ".cost", "Moodle's hints cost nothing of their own (each try after "
                                          "the first costs the penalty): the cost " +
                                              shortest_number(hint.cost) + " is left out");
        }
        // A tries setting of the bank's own is reported once, as settings.maxTries.
        const int tries = max_tries(bank_, question);
        const int read_back = question.hints.empty()
                                  ? 1
                                  : std::min(static_cast<int>(question.hints.size()) + 1, most_tries);
        const auto tries_text = [](int count) {
            return std::to_string(count) + (count == 1 ? " try" : " tries");
        };
        if (tries != read_back && (question.max_tries || bank_.settings.max_tries == Settings{}.max_tries))
            lose(path + ".maxTries", "Moodle gives a question one try per hint plus one: importing "
                                     "this file gives it " + tries_text(read_back) + ", not " +
                                         tries_text(tries));
        if (question.try_penalty && question.hints.empty())
            lose(path + ".tryPenalty", "written as <penalty>, which importing this file keeps only "
                                       "on a question with hints (Moodle's tries come with them): "
                                       "it is left out");
    }

    // The tags the category does not give, as Moodle's question tags.
    void write_tags(const Question& question, const std::string& category, const std::string& path) {
        std::string tags;
        for (std::size_t i = category.empty() ? 0 : 1; i < question.tags.size(); ++i) {
            if (!has_collapsed_spaces(question.tags[i]))
                lose(path + ".tags[" + std::to_string(i) + "]",
                     "the tag " + in_quotes(question.tags[i]) + " is read back with its spaces collapsed");
            tags += "      <tag><text>" + escaped(question.tags[i], path + ".tags") + "</text></tag>\n";
        }
        if (!tags.empty())
            out_ += "    <tags>\n" + tags + "    </tags>\n";
    }

    // Single choice: the right answer 100%, the others 0. Multiple choice: the right answers
    // share 100% and, with partial credit, each wrong one takes a right one's share away, which
    // is ImQuiz's own scoring (right picks - wrong picks) / right answers.
    void write_choices(const Question& question, const std::string& path) {
        const bool single = question.type == QuestionType::SingleChoice;
        std::size_t right = 0;
        for (const Choice& choice : question.choices)
            right += choice.correct ? 1 : 0;
        const std::string share = percent(100.0 / static_cast<double>(std::max<std::size_t>(right, 1)));
        const std::string wrong = single || !bank_.settings.partial_credit ? "0" : "-" + share;
        out_ += std::string("    <single>") + (single ? "true" : "false") + "</single>\n";
        out_ += std::string("    <shuffleanswers>") + (bank_.settings.shuffle_choices ? "true" : "false") +
                "</shuffleanswers>\n";
        out_ += "    <answernumbering>abc</answernumbering>\n";
        for (std::size_t i = 0; i < question.choices.size(); ++i) {
            const Choice& choice = question.choices[i];
            const std::string choice_path = path + ".choices[" + std::to_string(i) + "]";
            const std::string feedback =
                choice.feedback.empty() ? std::string()
                                        : formatted("feedback", text(choice.feedback), choice_path + ".feedback");
            out_ += "    <answer fraction=\"" + (choice.correct ? (single ? "100" : share) : wrong) +
                    "\" format=\"" + format_ + "\"><text>" + escaped(text(choice.text), choice_path + ".text") +
                    "</text>" + feedback + "</answer>\n";
        }
        lose_changed_ids(question.choices, path + ".choices");
    }

    // Moodle XML has no choice ids: the import makes them from the texts again.
    void lose_changed_ids(const std::vector<Choice>& choices, const std::string& path) {
        if (!choice_ids_read_back(choices, language_, bank_.default_language))
            lose(path, "Moodle XML has no choice ids: importing this file makes them from the "
                       "texts, so learners' progress on the question would not carry over");
    }

    // Value and tolerance: a range becomes its midpoint with half its width.
    std::string number(const NumericAnswer& answer, const std::string& path, std::string& tolerance) {
        if (answer.form == NumericAnswer::Form::Range) {
            lose(path, "Moodle XML has no ranges: " + shortest_number(answer.min) + ".." +
                           shortest_number(answer.max) + " is written as its midpoint with half its "
                                                         "width as the tolerance");
            tolerance = shortest_number((answer.max - answer.min) / 2);
            return shortest_number(answer.min + (answer.max - answer.min) / 2);
        }
        tolerance = shortest_number(answer.tolerance);
        return shortest_number(answer.value);
    }

    void write_numerical(const Question& question, const std::string& path) {
        std::string tolerance;
        const std::string value = number(question.numeric_answer, path + ".answer", tolerance);
        out_ += "    <answer fraction=\"100\" format=\"moodle_auto_format\"><text>" + value +
                "</text><tolerance>" + tolerance + "</tolerance></answer>\n";
        if (question.unit.empty())
            return;
        out_ += "    <units><unit><multiplier>1</multiplier><unit_name>" +
                escaped(plain(text(question.unit), path + ".unit"), path + ".unit") +
                "</unit_name></unit></units>\n";
    }

    // A text the importer reads as plain text, its spaces collapsed, and escapes for Markdown in a
    // Markdown bank (a unit, a matching answer): what to write so that it reads back the same.
    std::string plain(const std::string& value, const std::string& path) {
        const std::optional<std::string> written =
            markdown_ ? unescaped_markdown(value) : std::optional<std::string>(value);
        if (!written || !has_collapsed_spaces(*written))
            lose(path, "Moodle XML holds this text as plain text: " + in_quotes(value) +
                           " does not read back as written");
        return written.value_or(value);
    }

    std::vector<std::string> accepted(const std::vector<LocalizedText>& accepted_texts) const {
        return every_accepted_text(accepted_texts, language_, bank_.default_language);
    }

    // A subquestion per item, its answer's text; an answer no item goes with is a subquestion
    // without text, written where it keeps the answers' order (the importer lists the answers in
    // the order they first appear).
    void write_matching(const Question& question, const std::string& path) {
        out_ += std::string("    <shuffleanswers>") + (bank_.settings.shuffle_choices ? "true" : "false") +
                "</shuffleanswers>\n";
        std::vector<bool> written(question.choices.size(), false);
        std::vector<std::size_t> order;   // of the answers, as the importer will list them
        std::vector<std::string> answer_texts;   // each checked (and its loss reported) once
        for (std::size_t i = 0; i < question.choices.size(); ++i) {
            const std::string answer_path = path + ".choices[" + std::to_string(i) + "].text";
            answer_texts.push_back(escaped(plain(text(question.choices[i].text), answer_path), answer_path));
        }
        const auto subquestion = [&](const std::string& item_text, std::size_t answer) {
            out_ += "    " +
                    formatted("subquestion", item_text, path + ".items",
                              "<answer><text>" + answer_texts[answer] + "</text></answer>") +
                    "\n";
            if (!written[answer])
                order.push_back(answer);
            written[answer] = true;
        };
        const auto index_of = [&](const std::string& id) {
            std::size_t index = 0;
            while (index < question.choices.size() && question.choices[index].id != id)
                ++index;
            return index;
        };
        const auto used = [&](std::size_t answer) {
            return std::any_of(question.match_items.begin(), question.match_items.end(),
                               [&](const MatchItem& item) { return item.answer_id == question.choices[answer].id; });
        };
        for (std::size_t i = 0; i < question.match_items.size(); ++i) {
            const MatchItem& item = question.match_items[i];
            const std::size_t answer = index_of(item.answer_id);
            if (answer == question.choices.size())
                continue;
            for (std::size_t distractor = 0; !written[answer] && distractor < answer; ++distractor)
                if (!written[distractor] && !used(distractor))
                    subquestion("", distractor);
            subquestion(text(item.text), answer);
            if (!item.feedback.empty())
                lose(path + ".items[" + std::to_string(i) + "].feedback",
                     "Moodle XML has no feedback per matching item: it is left out");
        }
        for (std::size_t answer = 0; answer < question.choices.size(); ++answer)
            if (!written[answer])
                subquestion("", answer);
        bool same_order = true;
        for (std::size_t i = 0; i < order.size(); ++i)
            same_order &= order[i] == i;
        if (!same_order)
            lose(path + ".choices", "the importer lists the answers in the order the items use them: "
                                    "they come back in another order");
        // The ids the importer makes from the texts again.
        Question read_back = question;
        for (Choice& choice : read_back.choices)
            choice.text = LocalizedText::same_in_all_languages(text(choice.text));
        for (MatchItem& item : read_back.match_items)
            item.text = LocalizedText::same_in_all_languages(text(item.text));
        std::vector<std::size_t> answer_of_item;
        for (const MatchItem& item : question.match_items)
            answer_of_item.push_back(index_of(item.answer_id));
        assign_matching_ids(read_back, answer_of_item);
        bool same_ids = true;
        for (std::size_t i = 0; i < question.choices.size(); ++i)
            same_ids &= read_back.choices[i].id == question.choices[i].id;
        for (std::size_t i = 0; i < question.match_items.size(); ++i)
            same_ids &= read_back.match_items[i].id == question.match_items[i].id;
        if (!same_ids)
            lose(path, "Moodle XML has no item or answer ids: importing this file makes them from "
                       "the texts, so learners' progress on the question would not carry over");
    }

    // qtype_ordering's shape: the answers in their right order, their fractions 1, 2, 3...
    void write_ordering(const Question& question, const std::string& path) {
        out_ += "    <layouttype>VERTICAL</layouttype>\n    <selecttype>ALL</selecttype>\n"
                "    <selectcount>0</selectcount>\n    <gradingtype>ABSOLUTE_POSITION</gradingtype>\n";
        for (std::size_t i = 0; i < question.choices.size(); ++i)
            out_ += "    <answer fraction=\"" + std::to_string(i + 1) + "\" format=\"" + format_ + "\"><text>" +
                    escaped(text(question.choices[i].text), path + ".choices[" + std::to_string(i) + "].text") +
                    "</text></answer>\n";
        lose_changed_ids(question.choices, path + ".choices");
    }

    // The prompt with each {{id}} replaced by its embedded answer; none (after a loss) when the
    // text around the blanks would itself read as an embedded answer.
    std::optional<std::string> cloze_text(const Question& question, const std::string& path) {
        std::string result;
        std::size_t blank_number = 0;
        for (const ClozePiece& piece : split_cloze(text(question.prompt))) {
            if (has_embedded_answer(piece.text)) {
                lose(path + ".prompt", "the text holds \"{n:TYPE:\", which Moodle reads as an embedded "
                                       "answer: the question is left out");
                return std::nullopt;
            }
            result += piece.text;
            if (piece.blank_id.empty())
                continue;
            const Blank* blank = question.find_blank(piece.blank_id);
            if (blank == nullptr)
                continue;
            ++blank_number;
            const std::size_t index = static_cast<std::size_t>(blank - question.blanks.data());
            result += embedded_answer(*blank, path + ".blanks[" + std::to_string(index) + "]");
            if (blank->id != "blank-" + std::to_string(blank_number))
                lose(path + ".blanks[" + std::to_string(index) + "].id",
                     "Moodle XML has no blank ids: importing this file names the blank \"blank-" +
                         std::to_string(blank_number) + "\", so learners' progress on the question would "
                                                  "not carry over");
        }
        return result;
    }

    // One answer of an embedded answer: its text, then "#feedback". A text that ends with a
    // backslash, or with '&' before the feedback's '#', reads back otherwise.
    std::string alternative(const std::string& answer, const std::string& feedback, const std::string& path) {
        if (!answer.empty() && answer.back() == '\\')
            lose(path, "the answer " + in_quotes(answer) + " ends with a backslash, which Moodle "
                                                           "reads as escaping the mark after it");
        else if (!feedback.empty() && !answer.empty() && answer.back() == '&')
            lose(path, "the answer " + in_quotes(answer) + " ends with \"&\": Moodle reads the "
                                                           "feedback's \"#\" after it as an entity");
        return embedded_escaped(answer) + (feedback.empty() ? "" : "#" + embedded_escaped(feedback));
    }

    // {1:MULTICHOICE:=right#feedback~wrong}, {1:SHORTANSWER:=a~=b}, {1:NUMERICAL:=5:0.1}.
    std::string embedded_answer(const Blank& blank, const std::string& path) {
        std::string answers;
        switch (blank.kind) {
        case Blank::Kind::Options:
            for (std::size_t i = 0; i < blank.options.size(); ++i) {
                const Choice& option = blank.options[i];
                const std::string& option_text = text(option.text);
                // A wrong answer that starts with a mark gets its fraction written out.
                const std::string mark = option.correct ? "="
                                         : !option_text.empty() && (option_text.front() == '=' || option_text.front() == '%')
                                             ? "%0%"
                                             : "";
                answers += (i == 0 ? "" : "~") + mark +
                           alternative(option_text, text(option.feedback),
                                       path + ".choices[" + std::to_string(i) + "]");
            }
            lose_changed_ids(blank.options, path + ".choices");
            if (!blank.feedback.empty())
                lose(path + ".feedback", "Moodle's embedded choices have feedback per choice only: "
                                         "the blank's feedback is left out");
            return std::string("{1:MULTICHOICE") + (bank_.settings.shuffle_choices ? "_S" : "") + ":" +
                   answers + "}";
        case Blank::Kind::Typed: {
            // The blank's feedback on its first answer: the importer joins the right answers'.
            std::string feedback = text(blank.feedback);
            for (const std::string& answer : accepted(blank.accepted_texts)) {
                answers += (answers.empty() ? "=" : "~=") + alternative(answer, feedback, path + ".accept");
                feedback.clear();
            }
            return "{1:SHORTANSWER:" + answers + "}";
        }
        case Blank::Kind::Numeric: {
            std::string tolerance;
            const std::string value = number(blank.numeric_answer, path + ".answer", tolerance);
            if (!blank.unit.empty())
                lose(path + ".unit", "Moodle's embedded numbers have no unit: the unit is left out");
            return "{1:NUMERICAL:=" + value + ":" + tolerance +
                   (blank.feedback.empty() ? "" : "#" + embedded_escaped(text(blank.feedback))) + "}";
        }
        }
        return {};
    }

    // The importer keeps a "markdown" text as written (and makes the bank a Markdown bank), and
    // trims a "plain_text" one.
    const std::string format_ = markdown_ ? "markdown" : "plain_text";
};

} // namespace

std::string export_moodle_xml(const Bank& bank, std::string_view language,
                              std::vector<Diagnostic>* losses) {
    return MoodleXmlWriter(bank, language, losses).write();
}

} // namespace imquiz
