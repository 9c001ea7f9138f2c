// Internal to the importers and exporters (gift.cpp, aiken.cpp, plain_text.cpp, moodle_xml.cpp, export_gift.cpp, export_moodle_xml.cpp): source lines
// and positions, diagnostics, ids made from texts, and the last step every importer shares
// (bank -> JSON -> load_bank, its diagnostics moved to source lines).
#pragma once

#include "engine/bank.h"
#include "engine/diagnostics.h"
#include "engine/ids.h"
#include "engine/import/import.h"
#include "engine/limits.h"

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace imquiz::import_support {

struct SourceLine {
    std::string_view text;    // without the line break (and without a '\r' before it)
    std::size_t offset = 0;   // of the line's first byte in the source
    int number = 0;           // 1-based
};

// The source split into lines, with a byte offset -> line/column map.
class Source {
public:
    explicit Source(std::string_view text);
    std::string_view text() const { return text_; }
    const std::vector<SourceLine>& lines() const { return lines_; }
    // Counting the column from the last position asked for when it is on the same line and not
    // further on, so that positions asked in reading order cost linear time in all, even on a
    // 16 MiB line.
    SourcePosition position_at(std::size_t offset) const;
    // The position of the first non-blank character of `line` (column 1 for a blank line).
    SourcePosition start_of(const SourceLine& line) const;

private:
    std::string_view text_;
    std::vector<SourceLine> lines_;
    mutable std::size_t last_offset_ = 0;
    mutable SourcePosition last_position_{1, 1};
    mutable std::size_t last_line_index_ = 0;
};

// Where each imported question, and each of its choices or accepted answers, was written;
// parallel to Bank::questions. Used to move load_bank()'s diagnostics to source lines.
struct QuestionSource {
    SourcePosition question;
    std::vector<SourcePosition> choices;    // parallel to Question::choices
    std::vector<SourcePosition> accepted;   // parallel to Question::accepted_texts
};

struct SourceMap {
    SourcePosition title;
    SourcePosition description;
    std::vector<QuestionSource> questions;
};

// Bounds from LoadLimits that the importers check while reading, before load_bank() would: a
// hostile file must not build millions of questions first.
std::size_t max_questions();
std::size_t max_choices_per_question();

// Checks the input as a whole: size limit, UTF-8 (the first bad byte is reported with its
// position). Removes a UTF-8 byte order mark from `text`. False after reporting an error.
bool check_input(std::string_view& text, std::string_view what, DiagnosticCollector& report);

// Starts the bank from the options: id, language, title (`document_title` when the option is
// empty, else one made from the file name). False after reporting an error.
bool start_bank(const ImportOptions& options, std::string_view file_name,
                std::string_view document_title, Bank& bank, DiagnosticCollector& report);

// Writes the bank as JSON, reads it back with load_bank() and returns it when nothing is wrong.
// load_bank()'s diagnostics are moved to the positions in `map`. All diagnostics are sorted by
// line and column (stably), the imported file's before another file's (a key file). No bank when
// `diagnostics` already has an error or there is no question.
ImportResult finish_import(const Bank& bank, const SourceMap& map,
                           std::vector<Diagnostic> diagnostics, std::string_view file_name);

// A text in the import language.
LocalizedText text_in(const std::string& language, std::string text);

// ASCII whitespace (space, tab, CR, LF, VT, FF) trimmed at both ends.
std::string_view trim(std::string_view text);
bool is_blank(std::string_view text);

// A slug ([a-z0-9]+(-[a-z0-9]+)*) from any text: ASCII letters lowercased, Cyrillic
// transliterated, apostrophes dropped, anything else separates words. Cut at a word boundary to
// at most `max_length` characters; empty when the text has no letter or digit to keep.
std::string slugify(std::string_view text, std::size_t max_length);
using imquiz::is_slug;  // the engine's own, from engine/json/fields.h

// Ids unique within one list (the questions of a bank, the choices of a question).
class UniqueIds {
public:
    // `base`, or `base-2`, `base-3`... whichever is not taken yet (`base` shortened when the
    // suffix would pass the 64-character id limit). Amortized constant work per call, however
    // many equal bases a hostile file brings.
    std::string take(const std::string& base);

private:
    std::set<std::string> taken_;
    std::map<std::string, int> next_suffix_;   // by base
};

// A question's id from its title or name, as a slug of at most 64 characters (an exported id
// must come back unchanged), else "q<number>" (`number`: 1-based among the imported questions);
// unique among `ids`.
std::string take_question_id(UniqueIds& ids, std::string_view title, std::size_t number);

// Choice ids from the choices' texts ("choice-N" when a text gives no slug), unique within the
// question.
void assign_choice_ids(Question& question);
// The same for a cloze blank's options, unique within the blank.
void assign_option_ids(std::vector<Choice>& options);
// A matching question's item ids, the same way ("item-N" when a text gives no slug).
void assign_match_item_ids(Question& question);
// A matching question's ids all at once: its answers' and items' ids, then each item's answer
// (`answer_of_item[i]`: the index in `choices` of item i's answer).
void assign_matching_ids(Question& question, const std::vector<std::size_t>& answer_of_item);

// The tag a GIFT "$CATEGORY: $course$/top/Networks" line gives: the last part of the path as a
// slug ("networks"), or as written when a slug keeps nothing of it; empty for an empty path.
std::string gift_category_tag(std::string_view path);

// The rule GIFT and Moodle XML share for answer feedback a question type has no field for
// (true/false, numerical, short answer): the general feedback is the explanation, and then the
// answer feedback is dropped (true: the caller says so); without general feedback the answer
// feedbacks, joined with `separator`, are the explanation.
bool set_explanation(Question& question, const std::string& language,
                     const std::string& general_feedback,
                     const std::vector<std::string>& answer_feedbacks, const char* separator);

// Plain text as Markdown that reads exactly as written (for a Markdown bank's texts that were
// plain): only what Markdown reads as marks gets a backslash (*, _, `, [, ], <, >, #, |, ~, $, &,
// \ anywhere; at a line's start also -, +, = and a number's "." or ")"), and a line break becomes
// a hard break.
std::string escape_markdown(std::string_view plain);
LocalizedText escape_markdown(const LocalizedText& text);   // each translation

// What an exporter cannot write (export_gift, export_moodle_xml): a warning whose path names the
// bank field, added to `losses` when it is given.
void report_loss(std::vector<Diagnostic>* losses, std::string path, std::string message);

// What the exporters' writers share: the bank, the language its texts are written in, the losses,
// the tag of the category written last and the text written so far.
class ExportWriter {
protected:
    ExportWriter(const Bank& bank, std::string_view language, std::vector<Diagnostic>* losses)
        : bank_(bank), language_(language), losses_(losses) {}

    const std::string& text(const LocalizedText& value) const {
        return value.get(language_, bank_.default_language);
    }
    void lose(const std::string& path, std::string message) {
        report_loss(losses_, path, std::move(message));
    }

    const Bank& bank_;
    const bool markdown_ = bank_.text_format == TextFormat::Markdown;
    std::string_view language_;
    std::vector<Diagnostic>* losses_;
    std::string category_;
    std::string out_;
};

// Whether an import, which has no choice ids, makes the same ids again from the choices' texts in
// `language` (else learners' progress on the question would not carry over).
bool choice_ids_read_back(const std::vector<Choice>& choices, std::string_view language,
                          std::string_view default_language);

// Every translation of every accepted answer (all of them count as right in the bank), each once,
// the one in `language` first for each answer.
std::vector<std::string> every_accepted_text(const std::vector<LocalizedText>& accepted_texts,
                                             std::string_view language,
                                             std::string_view default_language);

// The shortest "%g" spelling of `value` that reads back as the same double (what the exporters
// write for numbers, so that an imported number comes back unchanged); a whole number below 1e15
// as its digits.
std::string shortest_number(double value);


} // namespace imquiz::import_support
