// quizc's authoring commands, in quizc_import.cpp (the rest of quizc is in quizc.cpp).
//
// Both take the command's own arguments: argv[0] is the command name ("import" / "export"), as
// main() passes them with run_import_command(argc - 1, argv + 1). They return the process exit
// code: 0 done (warnings allowed), 1 the input has errors or a file cannot be read or written
// (nothing is written then), 2 wrong usage.
#pragma once

#include <string>
#include <string_view>

// Text from a bank, a file name or an argument, made safe to print: control, bidi and zero-width
// characters escaped (imquiz::escape_for_terminal), so a bank cannot drive the terminal or a CI
// log. (quizc.cpp)
std::string terminal(std::string_view text);

// Reads a whole file as bytes; false when it cannot be read. (quizc.cpp)
bool read_file(const std::string& path, std::string& contents);

// quizc import --from gift|aiken|text FILE [--key KEYFILE] [--lang CODE] [--id SLUG]
//              [--title TEXT] [-o BANK.json]
int run_import_command(int argc, char** argv);

// quizc export --to gift|moodle-xml BANK.json [-o OUT] [--lang CODE]
int run_export_command(int argc, char** argv);

// quizc package --scorm 1.2|2004 --site SITE_DIR (--quiz ID -o FILE.zip | --all -o DIR)
// (quizc_package.cpp; native quizc only: it needs libzip)
int run_package_command(int argc, char** argv);
