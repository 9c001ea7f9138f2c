// Problems found in a bank, a catalog or a progress record, reported all at once.
#pragma once

#include <string>
#include <vector>

namespace imquiz {

struct Diagnostic {
    enum class Severity { Error, Warning };
    Severity severity = Severity::Error;
    std::string file;
    // Where in the document, as a JSON path like `questions[3].choices[1].text`; empty for the
    // document as a whole (then `line`/`column` may be set instead, for syntax errors).
    std::string path;
    std::string message;
    // 1-based position for syntax errors (malformed JSON, nesting too deep); 0 when unknown.
    int line = 0;
    int column = 0;
};

// `file:path: message`; `file:line:column: message` when there is a position and no path;
// `file: message` for the document as a whole. The severity is left out: the caller shows it
// its own way (quizc prints it compiler-style, see format_diagnostic_with_severity).
std::string format_diagnostic(const Diagnostic& diagnostic);

// `file:path: error: message` / `file:path: warning: message`, the shape compilers use, so
// editors and CI logs recognise and link it.
std::string format_diagnostic_with_severity(const Diagnostic& diagnostic);

bool has_errors(const std::vector<Diagnostic>& diagnostics);
bool has_warnings(const std::vector<Diagnostic>& diagnostics);
int count_errors(const std::vector<Diagnostic>& diagnostics);
int count_warnings(const std::vector<Diagnostic>& diagnostics);

} // namespace imquiz
