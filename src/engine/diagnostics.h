// Problems found in a bank, a catalog or a progress record, reported all at once.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
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

// `"text"`, for messages that name what the file said.
std::string in_quotes(std::string_view text);

// Where an importer found something in a text file: 1-based; line 0 for the file as a whole.
struct SourcePosition {
    int line = 0;
    int column = 0;   // in characters
};

// Collects one file's diagnostics, up to `limit` (LoadLimits::max_diagnostics): the last one
// then says that reporting stopped, so a generated file with a systematic mistake gives a
// screenful, not a million lines. Warnings take at most half the list: later ones are counted in
// one last warning ("and N more warnings"), and checking goes on, since a bank of 600 questions
// without explanations is valid (it was refused as "too many problems"). The one collector of
// the engine: bank and catalog loader, progress decoder and importers.
class DiagnosticCollector {
public:
    DiagnosticCollector(std::string_view file, std::size_t limit, std::vector<Diagnostic>& out)
        : file_(file), limit_(limit), out_(out) {}

    void add(Diagnostic diagnostic);
    // At a JSON path ("" for the document as a whole).
    void error(const std::string& path, std::string message);
    void warning(const std::string& path, std::string message);
    // At a position in a text file (the importers).
    void error_at(SourcePosition where, std::string message);
    void warning_at(SourcePosition where, std::string message);

    bool full() const { return full_; }
    std::size_t count() const { return out_.size(); }
    bool any_error() const { return has_errors(out_); }
    const std::string& file() const { return file_; }

private:
    std::string file_;
    std::size_t limit_;
    std::vector<Diagnostic>& out_;
    bool full_ = false;
    std::size_t warnings_ = 0;            // warnings listed
    std::size_t unlisted_warnings_ = 0;
    std::size_t unlisted_at_ = 0;         // where the "and N more warnings" entry is
};

} // namespace imquiz
