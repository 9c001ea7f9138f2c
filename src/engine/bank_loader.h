// Reads bank and catalog files. Never throws or aborts, whatever the input: every problem found
// comes back as a Diagnostic (all of them at once, with file + JSON path), and the bank is only
// returned when there is no error (warnings allowed).
#pragma once

#include "engine/bank.h"
#include "engine/diagnostics.h"

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace imquiz {

// The file format version this engine reads.
constexpr int bank_format_version = 1;
constexpr int catalog_format_version = 1;

// Bounds that keep a hostile or broken file from exhausting memory or the stack (the wasm
// module has a small stack and a memory cap).
struct LoadLimits {
    std::size_t max_file_bytes = 16 * 1024 * 1024;
    std::size_t max_text_bytes = 64 * 1024;    // any one JSON string (texts, ids, keys), in bytes
    std::size_t max_questions = 20000;
    std::size_t max_choices_per_question = 26;
    std::size_t max_nesting_depth = 64;        // arrays/objects inside each other
    // Numbers, strings, arrays and objects in one document. A shipped bank has about 50 per
    // question (3 languages); without this, 16 MiB of `0,` is 8 million values, seconds of
    // parsing and hundreds of MB in the wasm module.
    std::size_t max_values = 2'000'000;
    // Languages one bank declares: every translated text is checked against each of them.
    std::size_t max_languages = 100;
    // Reporting stops after this many problems (one more diagnostic says so): a generated file
    // with a systematic mistake should not produce a million lines.
    std::size_t max_diagnostics = 500;
};

struct BankLoadResult {
    std::optional<Bank> bank;                  // set when there is no error
    std::vector<Diagnostic> diagnostics;       // errors and warnings, in the order found
};

struct CatalogLoadResult {
    std::optional<Catalog> catalog;
    std::vector<Diagnostic> diagnostics;
};

// `file_name` is only used to fill Diagnostic::file. A UTF-8 byte order mark at the start is
// accepted silently (editors on Windows add it; it changes nothing).
BankLoadResult load_bank(std::string_view json_text, std::string_view file_name,
                         const LoadLimits& limits = {});

CatalogLoadResult load_catalog(std::string_view json_text, std::string_view file_name,
                               const LoadLimits& limits = {});

enum class DocumentKind { Bank, Catalog, Unknown };

// Looks at the top-level "format" field ("imquiz-bank" / "imquiz-catalog").
DocumentKind detect_document_kind(std::string_view json_text, const LoadLimits& limits = {});

// Validates a bank or a catalog, whichever the "format" field says (a bank when unclear).
std::vector<Diagnostic> validate_document(std::string_view json_text, std::string_view file_name,
                                          const LoadLimits& limits = {});

} // namespace imquiz
