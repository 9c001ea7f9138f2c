// How problems are written: `file:path: message`, compiler-style with a severity for quizc.
#include "engine/diagnostics.h"

#include <catch2/catch.hpp>

using imquiz::Diagnostic;

TEST_CASE("format_diagnostic", "[diagnostics]") {
    Diagnostic diagnostic;
    diagnostic.file = "quizzes/a.json";
    diagnostic.message = "text is empty";

    SECTION("with a JSON path") {
        diagnostic.path = "questions[3].choices[1].text";
        CHECK(imquiz::format_diagnostic(diagnostic) ==
              "quizzes/a.json:questions[3].choices[1].text: text is empty");
        CHECK(imquiz::format_diagnostic_with_severity(diagnostic) ==
              "quizzes/a.json:questions[3].choices[1].text: error: text is empty");
    }
    SECTION("a syntax error has line and column instead") {
        diagnostic.line = 4;
        diagnostic.column = 17;
        diagnostic.message = "syntax error";
        CHECK(imquiz::format_diagnostic(diagnostic) == "quizzes/a.json:4:17: syntax error");
    }
    SECTION("the document as a whole") {
        diagnostic.message = "file is empty";
        CHECK(imquiz::format_diagnostic(diagnostic) == "quizzes/a.json: file is empty");
    }
    SECTION("warnings") {
        diagnostic.severity = Diagnostic::Severity::Warning;
        diagnostic.path = "questions[0]";
        diagnostic.message = "missing explanation";
        CHECK(imquiz::format_diagnostic_with_severity(diagnostic) ==
              "quizzes/a.json:questions[0]: warning: missing explanation");
    }
}

TEST_CASE("counting errors and warnings", "[diagnostics]") {
    std::vector<Diagnostic> diagnostics(3);
    diagnostics[1].severity = Diagnostic::Severity::Warning;
    diagnostics[2].severity = Diagnostic::Severity::Warning;
    CHECK(imquiz::count_errors(diagnostics) == 1);
    CHECK(imquiz::count_warnings(diagnostics) == 2);
    CHECK(imquiz::has_errors(diagnostics));
    diagnostics.erase(diagnostics.begin());
    CHECK_FALSE(imquiz::has_errors(diagnostics));
    CHECK(imquiz::has_warnings(diagnostics));
    CHECK_FALSE(imquiz::has_errors({}));
}
