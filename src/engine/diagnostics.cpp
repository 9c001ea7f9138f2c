#include "engine/diagnostics.h"

#include <algorithm>

namespace imquiz {
namespace {

std::string location(const Diagnostic& diagnostic) {
    std::string result = diagnostic.file;
    if (!diagnostic.path.empty()) {
        result += ':';
        result += diagnostic.path;
    } else if (diagnostic.line > 0) {
        result += ':' + std::to_string(diagnostic.line) + ':' + std::to_string(diagnostic.column);
    }
    return result;
}

} // namespace

std::string format_diagnostic(const Diagnostic& diagnostic) {
    return location(diagnostic) + ": " + diagnostic.message;
}

std::string format_diagnostic_with_severity(const Diagnostic& diagnostic) {
    const char* severity =
        diagnostic.severity == Diagnostic::Severity::Error ? "error: " : "warning: ";
    return location(diagnostic) + ": " + severity + diagnostic.message;
}

int count_errors(const std::vector<Diagnostic>& diagnostics) {
    return static_cast<int>(std::count_if(diagnostics.begin(), diagnostics.end(), [](const auto& d) {
        return d.severity == Diagnostic::Severity::Error;
    }));
}

int count_warnings(const std::vector<Diagnostic>& diagnostics) {
    return static_cast<int>(diagnostics.size()) - count_errors(diagnostics);
}

bool has_errors(const std::vector<Diagnostic>& diagnostics) {
    return count_errors(diagnostics) > 0;
}

bool has_warnings(const std::vector<Diagnostic>& diagnostics) {
    return count_warnings(diagnostics) > 0;
}

std::string in_quotes(std::string_view text) {
    std::string result = "\"";
    result += text;
    result += '"';
    return result;
}

void DiagnosticCollector::add(Diagnostic diagnostic) {
    if (full_)
        return;
    if (diagnostic.severity == Diagnostic::Severity::Warning) {
        if (warnings_ >= limit_ / 2) {
            if (unlisted_warnings_++ == 0) {
                unlisted_at_ = out_.size();
                diagnostic.path.clear();
                diagnostic.line = diagnostic.column = 0;
                out_.push_back(std::move(diagnostic));
            }
            out_[unlisted_at_].message = "and " + std::to_string(unlisted_warnings_) + " more warnings (not listed)";
            return;
        }
        ++warnings_;
    }
    if (out_.size() + 1 >= limit_) {
        diagnostic.severity = Diagnostic::Severity::Error;
        diagnostic.path.clear();
        diagnostic.line = diagnostic.column = 0;
        diagnostic.message =
            "too many problems: only the first " + std::to_string(out_.size()) + " are reported";
        full_ = true;
    }
    out_.push_back(std::move(diagnostic));
}

void DiagnosticCollector::error(const std::string& path, std::string message) {
    Diagnostic diagnostic;
    diagnostic.file = file_;
    diagnostic.path = path;
    diagnostic.message = std::move(message);
    add(std::move(diagnostic));
}

void DiagnosticCollector::warning(const std::string& path, std::string message) {
    Diagnostic diagnostic;
    diagnostic.severity = Diagnostic::Severity::Warning;
    diagnostic.file = file_;
    diagnostic.path = path;
    diagnostic.message = std::move(message);
    add(std::move(diagnostic));
}

void DiagnosticCollector::error_at(SourcePosition where, std::string message) {
    Diagnostic diagnostic;
    diagnostic.file = file_;
    diagnostic.line = where.line;
    diagnostic.column = where.column;
    diagnostic.message = std::move(message);
    add(std::move(diagnostic));
}

void DiagnosticCollector::warning_at(SourcePosition where, std::string message) {
    Diagnostic diagnostic;
    diagnostic.severity = Diagnostic::Severity::Warning;
    diagnostic.file = file_;
    diagnostic.line = where.line;
    diagnostic.column = where.column;
    diagnostic.message = std::move(message);
    add(std::move(diagnostic));
}

} // namespace imquiz
