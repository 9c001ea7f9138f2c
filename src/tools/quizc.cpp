// quizc — checks ImQuiz banks and catalogs before they ship.
//
//   quizc validate [--strict] FILE...   every problem as `file:path: error|warning: message`;
//                                       exit 1 on errors (with --strict also on warnings)
//   quizc stats FILE                    questions by type, languages, translation coverage
//   quizc formulas FILE                 a Markdown bank's TeX, one JSON object a line, for
//                                       scripts/check-math.mjs (MathJax checks it, not the engine)
//   quizc import / quizc export         banks from GIFT, Aiken, plain text; banks to GIFT
//                                       (quizc_import.cpp, docs/authoring.md)
//   quizc package                       a SCORM 1.2 / 2004 package of a bank for an LMS
//                                       (quizc_package.cpp, docs/lms.md)
//
// A catalog (format "imquiz-catalog") is validated together with the banks it lists.
#include "engine/bank_loader.h"
#include "engine/diagnostics.h"
#include "engine/json/writer.h"
#include "engine/image_file.h"
#include "engine/unicode.h"
#include "quizc_commands.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using imquiz::Diagnostic;
using imquiz::format_diagnostic_with_severity;

constexpr const char* usage =
    "usage: quizc validate [--strict] FILE...\n"
    "       quizc stats FILE\n"
    "       quizc formulas FILE\n"
    "       quizc import --from gift|aiken|text FILE [--key KEYFILE] [--lang CODE] [--id SLUG]\n"
    "                    [--title TEXT] [-o BANK.json]     (see quizc import --help)\n"
    "       quizc export --to gift|moodle-xml BANK.json [-o OUT] [--lang CODE]\n"
    "       quizc package --scorm 1.2|2004 --site SITE_DIR (--quiz ID -o FILE.zip | --all -o DIR)\n"
    "\n"
    "validate  prints every problem as `file:path: error|warning: message` and exits 1 when\n"
    "          there is an error (with --strict, also when there is a warning). A catalog\n"
    "          (quizzes/index.json) is checked with the banks it lists.\n"
    "stats     prints the questions by type, the languages and how complete each translation is.\n"
    "formulas  prints a Markdown bank's formulas ($...$, $$...$$) as JSON lines {path, display, tex};\n"
    "          scripts/check-math.mjs typesets them with MathJax and reports TeX errors.\n";

}  // namespace

std::string terminal(std::string_view text) {
    return imquiz::escape_for_terminal(text);
}

bool read_file(const std::string& path, std::string& contents) {
    // One bulk read: a stream copy goes byte by byte in the wasm build and holds the file twice.
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file)
        return false;
    const std::streamoff size = file.tellg();
    if (size < 0)
        return false;
    contents.resize(static_cast<std::size_t>(size));
    file.seekg(0);
    file.read(contents.data(), size);
    return static_cast<std::streamoff>(file.gcount()) == size;
}

namespace {

std::string canonical_key(const fs::path& path) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(path, error);
    return (error ? path : canonical).lexically_normal().string();
}

Diagnostic file_problem(const std::string& file, const std::string& path, std::string message) {
    Diagnostic diagnostic;
    diagnostic.file = file;
    diagnostic.path = path;
    diagnostic.message = std::move(message);
    return diagnostic;
}

class Validation {
public:
    void validate_file(const std::string& file) {
        if (!checked_.insert(canonical_key(file)).second)
            return;
        ++file_count_;
        std::string text;
        if (!read_file(file, text)) {
            report({file_problem(file, "", "cannot read the file")});
            return;
        }
        if (imquiz::detect_document_kind(text) == imquiz::DocumentKind::Catalog)
            validate_catalog(file, text);
        else
            report_bank(file, imquiz::load_bank(text, file));
    }

    int exit_code(bool strict) const {
        return errors_ > 0 || (strict && warnings_ > 0) ? 1 : 0;
    }

    void print_summary() const {
        std::fprintf(stderr, "quizc: %d file%s checked, %d error%s, %d warning%s\n", file_count_,
                     file_count_ == 1 ? "" : "s", errors_, errors_ == 1 ? "" : "s", warnings_,
                     warnings_ == 1 ? "" : "s");
    }

private:
    void validate_catalog(const std::string& file, const std::string& text) {
        const imquiz::CatalogLoadResult loaded = imquiz::load_catalog(text, file);
        report(loaded.diagnostics);
        if (!loaded.catalog)
            return;
        const fs::path folder = fs::path(file).parent_path();
        for (std::size_t i = 0; i < loaded.catalog->banks.size(); ++i) {
            const imquiz::CatalogEntry& entry = loaded.catalog->banks[i];
            const std::string entry_path = "banks[" + std::to_string(i) + "]";
            const fs::path bank_file = folder / entry.file;
            std::string bank_text;
            if (!read_file(bank_file, bank_text)) {
                report({file_problem(file, entry_path + ".file",
                                     "cannot read \"" + bank_file.string() + "\"")});
                continue;
            }
            const imquiz::BankLoadResult bank = imquiz::load_bank(bank_text, bank_file.string());
            if (bank.bank && bank.bank->id != entry.id)
                report({file_problem(file, entry_path + ".id",
                                     "the catalog says \"" + entry.id + "\" but " +
                                         bank_file.string() + " has id \"" + bank.bank->id +
                                         "\"")});
            if (checked_.insert(canonical_key(bank_file)).second) {
                ++file_count_;
                report_bank(bank_file.string(), bank);
            }
            if (!entry.formulas.empty())
                check_typeset_formulas(file, entry_path + ".formulas", folder / entry.formulas, bank);
        }
    }

    // A catalog entry's formulas typeset ahead of time (scripts/check-math.mjs --write): the file
    // must be there and hold every formula of its bank. Warnings: a formula it lacks (the bank was
    // edited since) is typeset by MathJax in the page, which is slower, never wrong.
    void check_typeset_formulas(const std::string& file, const std::string& path, const fs::path& formulas_file,
                                const imquiz::BankLoadResult& bank) {
        auto warn = [&](std::string message) {
            imquiz::Diagnostic problem = file_problem(file, path, std::move(message));
            problem.severity = imquiz::Diagnostic::Severity::Warning;
            report({problem});
        };
        const std::string again = ": the page loads MathJax for them; run scripts/check-math.mjs --write again";
        std::string text;
        if (!read_file(formulas_file, text)) {
            warn("cannot read \"" + formulas_file.string() + "\"" + again);
            return;
        }
        const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
        const auto* formulas = parsed.is_object() && parsed.contains("formulas") ? &parsed["formulas"] : nullptr;
        if (!formulas || !formulas->is_array() || !parsed.contains("format") || parsed["format"] != "imquiz-formulas") {
            warn("\"" + formulas_file.string() + "\" is not a file of typeset formulas" + again);
            return;
        }
        std::set<std::pair<std::string, bool>> typeset;
        for (const nlohmann::json& formula : *formulas)
            if (formula.is_object() && formula.contains("tex") && formula["tex"].is_string() && formula.contains("display") &&
                formula["display"].is_boolean())
                typeset.emplace(formula["tex"].get<std::string>(), formula["display"].get<bool>());
        std::size_t missing = 0;
        std::string first;
        for (const imquiz::Formula& formula : bank.formulas) {
            if (typeset.count({formula.tex, formula.display})) continue;
            if (missing++ == 0) first = formula.tex;
        }
        if (missing > 0)
            warn(std::to_string(missing) + " of the bank's formulas " + (missing == 1 ? "is" : "are") + " not in \"" +
                 formulas_file.string() + "\" (the first: " + imquiz::in_quotes(first) + ")" + again);
    }

    void report_bank(const std::string& file, const imquiz::BankLoadResult& bank) {
        report(bank.diagnostics);
        if (bank.bank) report(imquiz::image_file_problems(*bank.bank, file, read_image_file));
    }

    // A Markdown bank's image, beside it on the disk, where the app will fetch it.
    static imquiz::ImageFileRead read_image_file(const std::string& path) {
        imquiz::ImageFileRead found;
        std::error_code error;
        const std::uintmax_t size = fs::file_size(path, error);
        found.exists = !error && fs::is_regular_file(path, error);
        found.size = static_cast<std::size_t>(size);
        if (found.exists && size <= imquiz::max_image_file_bytes && !read_file(path, found.bytes)) found.exists = false;
        return found;
    }

    void report(const std::vector<Diagnostic>& diagnostics) {
        for (const Diagnostic& diagnostic : diagnostics) {
            std::printf("%s\n", terminal(format_diagnostic_with_severity(diagnostic)).c_str());
            if (diagnostic.severity == Diagnostic::Severity::Error)
                ++errors_;
            else
                ++warnings_;
        }
    }

    std::set<std::string> checked_;
    int file_count_ = 0;
    int errors_ = 0;
    int warnings_ = 0;
};

int run_validate(const std::vector<std::string>& arguments) {
    bool strict = false;
    std::vector<std::string> files;
    for (const std::string& argument : arguments) {
        if (argument == "--strict")
            strict = true;
        else if (!argument.empty() && argument[0] == '-' && argument != "-")
            return std::fprintf(stderr, "quizc: unknown option %s\n%s",
                                terminal(argument).c_str(), usage),
                   2;
        else
            files.push_back(argument);
    }
    if (files.empty())
        return std::fprintf(stderr, "%s", usage), 2;
    Validation validation;
    for (const std::string& file : files)
        validation.validate_file(file);
    validation.print_summary();
    return validation.exit_code(strict);
}

// How many of the bank's learner-visible texts each language has.
struct Coverage {
    int total = 0;
    std::vector<int> present;   // parallel to Bank::languages
};

void count_text(const imquiz::Bank& bank, const imquiz::LocalizedText& text, Coverage& coverage) {
    if (text.empty())
        return;
    ++coverage.total;
    for (std::size_t i = 0; i < bank.languages.size(); ++i)
        if (text.has_language(bank.languages[i]))
            ++coverage.present[i];
}

void count_choices(const imquiz::Bank& bank, const std::vector<imquiz::Choice>& choices, Coverage& coverage) {
    for (const imquiz::Choice& choice : choices) {
        count_text(bank, choice.text, coverage);
        count_text(bank, choice.feedback, coverage);
    }
}

Coverage translation_coverage(const imquiz::Bank& bank) {
    Coverage coverage;
    coverage.present.assign(bank.languages.size(), 0);
    count_text(bank, bank.title, coverage);
    count_text(bank, bank.description, coverage);
    for (const imquiz::Question& question : bank.questions) {
        count_text(bank, question.prompt, coverage);
        count_text(bank, question.explanation, coverage);
        count_text(bank, question.unit, coverage);
        count_choices(bank, question.choices, coverage);
        for (const imquiz::LocalizedText& accepted : question.accepted_texts)
            count_text(bank, accepted, coverage);
        for (const imquiz::MatchItem& item : question.match_items) {
            count_text(bank, item.text, coverage);
            count_text(bank, item.feedback, coverage);
        }
        for (const imquiz::Blank& blank : question.blanks) {
            count_text(bank, blank.unit, coverage);
            count_text(bank, blank.feedback, coverage);
            count_choices(bank, blank.options, coverage);
        }
        for (const imquiz::Hint& hint : question.hints)
            count_text(bank, hint.text, coverage);
    }
    for (const imquiz::ScoreRange& range : bank.feedback_ranges)
        count_text(bank, range.text, coverage);
    return coverage;
}

int run_stats(const std::vector<std::string>& arguments) {
    if (arguments.size() != 1)
        return std::fprintf(stderr, "%s", usage), 2;
    const std::string& file = arguments[0];
    std::string text;
    if (!read_file(file, text))
        return std::fprintf(stderr, "%s: cannot read the file\n", terminal(file).c_str()), 1;
    const imquiz::BankLoadResult loaded = imquiz::load_bank(text, file);
    if (!loaded.bank) {
        for (const Diagnostic& diagnostic : loaded.diagnostics)
            std::printf("%s\n", terminal(format_diagnostic_with_severity(diagnostic)).c_str());
        return 1;
    }
    const imquiz::Bank& bank = *loaded.bank;
    std::printf("bank %s: %zu question%s\n", terminal(bank.id).c_str(), bank.questions.size(),
                bank.questions.size() == 1 ? "" : "s");
    std::printf("by type:\n");
    const imquiz::QuestionType types[] = {
        imquiz::QuestionType::SingleChoice, imquiz::QuestionType::MultipleChoice,
        imquiz::QuestionType::TrueFalse, imquiz::QuestionType::Numeric,
        imquiz::QuestionType::ShortText};
    for (imquiz::QuestionType type : types) {
        std::size_t count = 0;
        for (const imquiz::Question& question : bank.questions)
            count += question.type == type ? 1 : 0;
        std::printf("  %-16s %zu\n", std::string(imquiz::to_string(type)).c_str(), count);
    }
    std::printf("languages:");
    for (const std::string& language : bank.languages)
        std::printf(" %s%s", terminal(language).c_str(),
                    language == bank.default_language ? " (default)" : "");
    std::printf("\ntranslation coverage (learner-visible texts; a plain string counts for every "
                "language):\n");
    const Coverage coverage = translation_coverage(bank);
    for (std::size_t i = 0; i < bank.languages.size(); ++i) {
        const double percent = coverage.total == 0 ? 100.0 : 100.0 * coverage.present[i] /
                                                                  coverage.total;
        std::printf("  %-8s %5.1f%% (%d/%d)\n", terminal(bank.languages[i]).c_str(), percent,
                    coverage.present[i], coverage.total);
    }
    const int warnings = imquiz::count_warnings(loaded.diagnostics);
    if (warnings > 0)
        std::printf("%d warning%s: run `quizc validate %s` to see them\n", warnings,
                    warnings == 1 ? "" : "s", terminal(file).c_str());
    return 0;
}

} // namespace

// The engine finds formulas but cannot typeset TeX: they go out with their paths, for MathJax.
int run_formulas(const std::vector<std::string>& arguments) {
    if (arguments.size() != 1 || arguments[0].empty() || arguments[0][0] == '-')
        return std::fprintf(stderr, "%s", usage), 2;
    std::string text;
    if (!read_file(arguments[0], text))
        return std::fprintf(stderr, "quizc: cannot read %s\n", terminal(arguments[0]).c_str()), 1;
    const imquiz::BankLoadResult loaded = imquiz::load_bank(text, arguments[0]);
    for (const imquiz::Formula& formula : loaded.formulas) {
        imquiz::JsonWriter line;
        line.begin_object();
        line.key("path").string(formula.path);
        line.key("display").boolean(formula.display);
        line.key("tex").string(formula.tex);
        line.end_object();
        std::printf("%s\n", line.take().c_str());
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 2)
        return std::fprintf(stderr, "%s", usage), 2;
    const std::string command = argv[1];
    const std::vector<std::string> arguments(argv + 2, argv + argc);
    if (command == "validate")
        return run_validate(arguments);
    if (command == "formulas")
        return run_formulas(arguments);
    if (command == "stats")
        return run_stats(arguments);
    if (command == "import")
        return run_import_command(argc - 1, argv + 1);
    if (command == "export")
        return run_export_command(argc - 1, argv + 1);
#ifdef IMQUIZ_QUIZC_PACKAGE
    if (command == "package")
        return run_package_command(argc - 1, argv + 1);
#endif
    if (command == "--help" || command == "-h" || command == "help")
        return std::printf("%s", usage), 0;
    std::fprintf(stderr, "quizc: unknown command %s\n%s", terminal(command).c_str(), usage);
    return 2;
}
