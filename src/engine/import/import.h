// Authoring: banks from the quiz formats teachers already have (Moodle GIFT, Moodle XML, Aiken,
// a plain-text layout with an optional answer key), and banks back to GIFT and Moodle XML. The formats and every convention
// chosen here are described in docs/authoring.md.
//
// Never throws or aborts, whatever the input. Every problem is a Diagnostic with the source
// file's name, a 1-based line and a column in characters (path left empty); a problem that
// concerns the whole file has line 0. The bank is only returned when there is no error: it has
// been written as bank JSON and read back through load_bank(), whose diagnostics are included
// (moved to the line of the question they concern), so an imported bank always passes
// `quizc validate`.
#pragma once

#include "engine/bank.h"
#include "engine/diagnostics.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

struct ImportOptions {
    // The bank's id (a slug). Empty: derived from the file name ("Week 3.gift" -> "week-3").
    std::string bank_id;
    // The language every imported text is stored under; the bank declares only this one.
    std::string language = "en";
    // The bank's title. Empty: the document's own title (plain text) or one made from the file
    // name ("week-3.gift" -> "Week 3").
    std::string title;
};

// A file the bank needs beside it: an image that was embedded in the imported file.
struct ImportedFile {
    std::string path;    // relative to the bank file, as its texts refer to it ("images/x.png")
    std::string bytes;
};

struct ImportResult {
    std::optional<Bank> bank;              // set when there is no error (warnings allowed)
    std::vector<Diagnostic> diagnostics;   // errors and warnings, in source order
    std::vector<ImportedFile> files;       // with the bank only; to be written beside it
};

// Moodle GIFT: multiple choice, true/false, short answer, numerical and matching questions
// ("=item -> answer"; "= -> answer" for an answer no item goes with), and missing-word questions
// (text after the answers) as cloze questions with one blank. Essay and description items are
// skipped with a warning.
ImportResult import_gift(std::string_view text, std::string_view file_name,
                         const ImportOptions& options = {});

// Aiken: a question line, options "A." or "A)", then "ANSWER: X".
ImportResult import_aiken(std::string_view text, std::string_view file_name,
                          const ImportOptions& options = {});

// The plain-text layout of our seed documents: a title line, an intro paragraph, numbered
// questions ("1. ...") with bulleted options ("• ..."). The right options are marked in the
// document (a trailing "(*)" or "[x]" after the bullet) or listed in a separate key file
// (`key_file_text`, lines like "1: 2" or "1 = B"); `key_file_name` names it in diagnostics.
ImportResult import_text(std::string_view text, std::string_view file_name,
                         const ImportOptions& options = {},
                         std::optional<std::string_view> key_file_text = std::nullopt,
                         std::string_view key_file_name = "key");

// Moodle XML (Moodle's own export format): multichoice, truefalse, shortanswer, numerical,
// matching and ordering questions; embedded answers (multianswer, written "cloze"), gapselect and
// ddwtos as cloze questions; categories and tags as tags; HTML texts as Markdown when any
// text needs it (then the bank is a Markdown bank), else as plain text; embedded images in
// `files`. Other question types are skipped with a warning naming the question. Positions are
// lines of the XML (libxml2 gives no columns: the column is the line's first character).
// Native builds only: it is read with libxml2, which the web build does not link.
ImportResult import_moodle_xml(std::string_view text, std::string_view file_name,
                               const ImportOptions& options = {});

// The bank as GIFT, its texts in `language` (falling back to the bank's default language).
// What GIFT cannot hold (units, tags after the first, bank settings, the other translations) is
// left out; when `losses` is given, each loss is added to it as a warning whose path names the
// bank field (`questions[2].unit`). A bank imported from GIFT comes back the same after
// export_gift() and import_gift() (see docs/authoring.md for the exact subset).
std::string export_gift(const Bank& bank, std::string_view language,
                        std::vector<Diagnostic>* losses = nullptr);

// The bank as Moodle XML, its texts in `language` (falling back to the bank's default language),
// in the format of the bank's texts ("markdown" or "plain_text"). Written as a string: every
// build has it, the web's too. What Moodle XML cannot hold (the other translations, author notes,
// settings it cannot say, ranges, blank and choice ids the import would not make again) is
// reported in `losses` as for export_gift(). A bank imported from Moodle XML comes back the same
// after export_moodle_xml() and import_moodle_xml() (see docs/authoring.md for the subset).
std::string export_moodle_xml(const Bank& bank, std::string_view language,
                              std::vector<Diagnostic>* losses = nullptr);

} // namespace imquiz
