// Reads bank and catalog files. Never throws or aborts, whatever the input: every problem found
// comes back as a Diagnostic (all of them at once, with file + JSON path), and the bank is only
// returned when there is no error (warnings allowed).
#pragma once

#include "engine/bank.h"
#include "engine/diagnostics.h"
#include "engine/limits.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

// The file format version this engine reads.
constexpr int bank_format_version = 1;
constexpr int catalog_format_version = 1;

// A formula of a Markdown bank's text, where it is: the engine cannot typeset TeX (MathJax does,
// in the browser and in scripts/check-math.mjs), so it hands the formulas on with their paths.
struct Formula {
    std::string tex;
    bool display = false;       // $$...$$
    std::string path;           // the text's JSON path, as in Diagnostic::path
};

struct BankLoadResult {
    std::optional<Bank> bank;                  // set when there is no error
    std::vector<Diagnostic> diagnostics;       // errors and warnings, in the order found
    std::vector<Formula> formulas;             // a Markdown bank's, each text's in order, errors or not
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
