// quizc import / quizc export: banks from GIFT, Moodle XML, Aiken and plain-text quizzes, and
// banks back to GIFT and Moodle XML. The formats and conventions are in docs/authoring.md; the
// work is done by the engine (engine/import/import.h), this file only reads arguments and files
// and prints diagnostics.
#include "quizc_commands.h"

#include "engine/bank_loader.h"
#include "engine/bank_writer.h"
#include "engine/diagnostics.h"
#include "engine/import/import.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr const char* import_usage =
    "usage: quizc import --from gift|moodle-xml|aiken|text FILE [--key KEYFILE] [--lang CODE]\n"
    "                    [--id SLUG] [--title TEXT] [-o BANK.json]\n"
    "\n"
    "Makes a bank from a Moodle GIFT file, a Moodle XML file, an Aiken file or a plain-text quiz\n"
    "(docs/authoring.md). The images a Moodle XML file embeds are written beside the bank, in\n"
    "images/ (so -o is needed then); an image file that is there already with other bytes is an\n"
    "error.\n"
    "  --key KEYFILE  the right options of a plain-text quiz, lines like \"1: 2\" or \"1 = B\"\n"
    "  --lang CODE    the language of the texts (default en)\n"
    "  --id SLUG      the bank id (default: from the file name)\n"
    "  --title TEXT   the bank title (default: the document's title, else from the file name)\n"
    "  -o BANK.json   where to write the bank (default: standard output)\n"
    "Problems are printed as `file:line:column: error|warning: message`; on an error nothing is\n"
    "written and the exit code is 1.\n";

constexpr const char* export_usage =
    "usage: quizc export --to gift|moodle-xml BANK.json [-o OUT] [--lang CODE]\n"
    "\n"
    "Writes the bank as Moodle GIFT or Moodle XML (docs/authoring.md), its texts in one language\n"
    "(default: the bank's default language). What the format cannot hold is printed as a warning.\n"
    "  -o OUT         where to write, OUT.gift or OUT.xml (default: standard output)\n"
    "  --lang CODE    the language of the texts, one of the bank's\n";

// To `path`, or standard output for "" and "-".
bool write_output(const std::string& path, const std::string& contents) {
    if (path.empty() || path == "-") {
        std::fwrite(contents.data(), 1, contents.size(), stdout);
        return std::fflush(stdout) == 0;
    }
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file)
        return false;
    file.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    file.close();
    return !file.fail();
}

// The files a bank needs (its images), in the folder of `bank_path`. Every one is checked before
// any is written: a file that is there with other bytes is an error (prints it, writes nothing).
bool write_beside(const std::string& bank_path, const std::vector<imquiz::ImportedFile>& files) {
    namespace fs = std::filesystem;
    const fs::path folder = fs::path(bank_path).parent_path();
    for (const imquiz::ImportedFile& file : files) {
        std::string existing;
        const std::string path = (folder / file.path).string();
        if (read_file(path, existing) && existing != file.bytes) {
            std::fprintf(stderr, "%s: error: the file is there already, with other bytes: nothing "
                                 "is written (move it, or import elsewhere)\n",
                         terminal(path).c_str());
            return false;
        }
    }
    for (const imquiz::ImportedFile& file : files) {
        const fs::path path = folder / file.path;
        std::error_code error;
        fs::create_directories(path.parent_path(), error);
        if (error || !write_output(path.string(), file.bytes)) {
            std::fprintf(stderr, "%s: error: cannot write the file\n", terminal(path.string()).c_str());
            return false;
        }
    }
    return true;
}

void print(const std::vector<imquiz::Diagnostic>& diagnostics) {
    for (const imquiz::Diagnostic& diagnostic : diagnostics)
        std::fprintf(stderr, "%s\n",
                     terminal(imquiz::format_diagnostic_with_severity(diagnostic)).c_str());
}

int usage_error(const char* usage, const std::string& problem) {
    std::fprintf(stderr, "quizc: %s\n%s", terminal(problem).c_str(), usage);
    return 2;
}

std::string plural(int count, const char* word) {
    return std::to_string(count) + " " + word + (count == 1 ? "" : "s");
}

// Options of the form "--name VALUE"; the one positional argument is the input file.
struct Arguments {
    std::vector<std::pair<std::string, std::string>> options;
    std::string file;
    std::string problem;   // not empty when the arguments cannot be read

    const std::string* find(const std::string& name) const {
        for (const auto& option : options)
            if (option.first == name)
                return &option.second;
        return nullptr;
    }
};

Arguments read_arguments(int argc, char** argv, const std::vector<std::string>& known) {
    Arguments arguments;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument.size() > 1 && argument[0] == '-') {
            if (std::find(known.begin(), known.end(), argument) == known.end()) {
                arguments.problem = "unknown option " + argument;
                return arguments;
            }
            if (i + 1 >= argc) {
                arguments.problem = "option " + argument + " needs a value";
                return arguments;
            }
            if (arguments.find(argument) != nullptr) {
                arguments.problem = "option " + argument + " is given twice";
                return arguments;
            }
            arguments.options.emplace_back(argument, argv[++i]);
            continue;
        }
        if (!arguments.file.empty()) {
            arguments.problem = "one input file only, got " + arguments.file + " and " + argument;
            return arguments;
        }
        arguments.file = argument;
    }
    if (arguments.file.empty())
        arguments.problem = "no input file";
    return arguments;
}

} // namespace

int run_import_command(int argc, char** argv) {
    if (argc >= 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h"))
        return std::printf("%s", import_usage), 0;
    const Arguments arguments =
        read_arguments(argc, argv, {"--from", "--key", "--lang", "--id", "--title", "-o"});
    if (!arguments.problem.empty())
        return usage_error(import_usage, arguments.problem);
    const std::string* from = arguments.find("--from");
    if (from == nullptr)
        return usage_error(import_usage, "--from gift, moodle-xml, aiken or text is required");
    if (*from != "gift" && *from != "moodle-xml" && *from != "aiken" && *from != "text")
        return usage_error(import_usage,
                           "unknown format " + *from + " (expected gift, moodle-xml, aiken or text)");
#ifndef IMQUIZ_MOODLE_XML
    if (*from == "moodle-xml")
        return usage_error(import_usage, "this quizc (WebAssembly) has no Moodle XML reader: use the "
                                         "native quizc");
#endif
    const std::string* key_file = arguments.find("--key");
    if (key_file != nullptr && *from != "text")
        return usage_error(import_usage, "--key goes with --from text only");

    imquiz::ImportOptions options;
    if (const std::string* language = arguments.find("--lang"))
        options.language = *language;
    if (const std::string* id = arguments.find("--id"))
        options.bank_id = *id;
    if (const std::string* title = arguments.find("--title"))
        options.title = *title;

    std::string text;
    if (!read_file(arguments.file, text)) {
        std::fprintf(stderr, "%s: error: cannot read the file\n",
                     terminal(arguments.file).c_str());
        return 1;
    }
    std::string key_text;
    if (key_file != nullptr && !read_file(*key_file, key_text)) {
        std::fprintf(stderr, "%s: error: cannot read the key file\n",
                     terminal(*key_file).c_str());
        return 1;
    }

    imquiz::ImportResult result;
    if (*from == "gift")
        result = imquiz::import_gift(text, arguments.file, options);
#ifdef IMQUIZ_MOODLE_XML
    else if (*from == "moodle-xml")
        result = imquiz::import_moodle_xml(text, arguments.file, options);
#endif
    else if (*from == "aiken")
        result = imquiz::import_aiken(text, arguments.file, options);
    else if (key_file != nullptr)
        result = imquiz::import_text(text, arguments.file, options, std::string_view(key_text),
                                     *key_file);
    else
        result = imquiz::import_text(text, arguments.file, options);
    print(result.diagnostics);

    const int errors = imquiz::count_errors(result.diagnostics);
    const int warnings = imquiz::count_warnings(result.diagnostics);
    if (!result.bank) {
        std::fprintf(stderr, "quizc: nothing written: %s, %s\n", plural(errors, "error").c_str(),
                     plural(warnings, "warning").c_str());
        return 1;
    }
    const std::string* output = arguments.find("-o");
    const std::string output_name = output == nullptr ? "-" : *output;
    if (!result.files.empty() && output_name == "-") {
        std::fprintf(stderr, "quizc: nothing written: the bank shows %s from the file; give -o "
                             "BANK.json so that they can be written beside it\n",
                     plural(static_cast<int>(result.files.size()), "image").c_str());
        return 1;
    }
    if (!write_beside(output_name, result.files))
        return 1;
    if (!write_output(output_name, imquiz::bank_to_json(*result.bank))) {
        std::fprintf(stderr, "%s: error: cannot write the file\n", terminal(output_name).c_str());
        return 1;
    }
    std::fprintf(stderr, "quizc: bank %s: %s written to %s%s, %s\n",
                 terminal(result.bank->id).c_str(),
                 plural(static_cast<int>(result.bank->questions.size()), "question").c_str(),
                 output_name == "-" ? "standard output" : terminal(output_name).c_str(),
                 result.files.empty()
                     ? ""
                     : (" with " + plural(static_cast<int>(result.files.size()), "image")).c_str(),
                 plural(warnings, "warning").c_str());
    return 0;
}

int run_export_command(int argc, char** argv) {
    if (argc >= 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h"))
        return std::printf("%s", export_usage), 0;
    const Arguments arguments = read_arguments(argc, argv, {"--to", "--lang", "-o"});
    if (!arguments.problem.empty())
        return usage_error(export_usage, arguments.problem);
    const std::string* to = arguments.find("--to");
    if (to == nullptr)
        return usage_error(export_usage, "--to gift or moodle-xml is required");
    if (*to != "gift" && *to != "moodle-xml")
        return usage_error(export_usage, "unknown format " + *to + " (expected gift or moodle-xml)");

    std::string text;
    if (!read_file(arguments.file, text)) {
        std::fprintf(stderr, "%s: error: cannot read the file\n",
                     terminal(arguments.file).c_str());
        return 1;
    }
    const imquiz::BankLoadResult loaded = imquiz::load_bank(text, arguments.file);
    if (!loaded.bank) {
        print(loaded.diagnostics);
        std::fprintf(stderr, "quizc: nothing written: the bank has %s (see quizc validate)\n",
                     plural(imquiz::count_errors(loaded.diagnostics), "error").c_str());
        return 1;
    }
    const imquiz::Bank& bank = *loaded.bank;
    std::string language = bank.default_language;
    if (const std::string* requested = arguments.find("--lang")) {
        if (std::find(bank.languages.begin(), bank.languages.end(), *requested) ==
            bank.languages.end()) {
            std::string declared;
            for (const std::string& code : bank.languages)
                declared += (declared.empty() ? "" : ", ") + code;
            std::fprintf(stderr, "%s: error: language \"%s\" is not one of the bank's languages "
                                 "(%s)\n",
                         terminal(arguments.file).c_str(), terminal(*requested).c_str(),
                         terminal(declared).c_str());
            return 1;
        }
        language = *requested;
    }

    std::vector<imquiz::Diagnostic> losses;
    const std::string exported = *to == "gift" ? imquiz::export_gift(bank, language, &losses)
                                               : imquiz::export_moodle_xml(bank, language, &losses);
    for (imquiz::Diagnostic& loss : losses)
        loss.file = arguments.file;
    print(losses);
    const std::string* output = arguments.find("-o");
    const std::string output_name = output == nullptr ? "-" : *output;
    if (!write_output(output_name, exported)) {
        std::fprintf(stderr, "%s: error: cannot write the file\n", terminal(output_name).c_str());
        return 1;
    }
    std::fprintf(stderr, "quizc: bank %s: %s exported in \"%s\" to %s, %s\n",
                 terminal(bank.id).c_str(),
                 plural(static_cast<int>(bank.questions.size()), "question").c_str(),
                 terminal(language).c_str(),
                 output_name == "-" ? "standard output" : terminal(output_name).c_str(),
                 plural(static_cast<int>(losses.size()), "warning").c_str());
    return 0;
}
