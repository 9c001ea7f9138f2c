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

} // namespace imquiz
