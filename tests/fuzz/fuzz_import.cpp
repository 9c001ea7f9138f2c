// libFuzzer harness for the authoring importers (engine/import/import.h): the same bytes go to the GIFT,
// Moodle XML, Aiken and plain-text importers (the plain-text one also with them as its key file), and every
// bank that comes out is exported to GIFT, imported again and written as JSON. Nothing may throw,
// abort or read out of bounds, and an imported bank must always be one load_bank() accepts.
//
// Not wired into CMake yet; by hand:
//   clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-exceptions \
//     -Isrc -I/usr/include tests/fuzz/fuzz_import.cpp src/engine/*.cpp -o fuzz_import
//   ./fuzz_import -max_len=4096 tests/data/import
#include "engine/bank_loader.h"
#include "engine/bank_writer.h"
#include "engine/import/import.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void check_bank(const imquiz::ImportResult& result) {
    if (!result.bank)
        return;
    if (imquiz::has_errors(result.diagnostics))
        std::abort();   // a bank is only returned without errors
    const std::string json = imquiz::bank_to_json(*result.bank);
    if (!imquiz::load_bank(json, "fuzz.json").bank)
        std::abort();   // every imported bank validates
    for (const char* language : {"en", "ru"}) {
        std::vector<imquiz::Diagnostic> losses;
        const std::string gift = imquiz::export_gift(*result.bank, language, &losses);
        const imquiz::ImportResult again = imquiz::import_gift(gift, "fuzz.gift", {});
        if (again.bank)
            (void)imquiz::bank_to_json(*again.bank);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    imquiz::ImportOptions options;
    check_bank(imquiz::import_gift(text, "fuzz.gift", options));
    check_bank(imquiz::import_moodle_xml(text, "fuzz.xml", options));
    check_bank(imquiz::import_aiken(text, "fuzz.aiken", options));
    check_bank(imquiz::import_text(text, "fuzz.txt", options));
    // The first line as a key file for the rest: keys and documents both get fuzzed.
    const std::size_t line_end = text.find('\n');
    if (line_end != std::string_view::npos)
        check_bank(imquiz::import_text(text.substr(line_end + 1), "fuzz.txt", options,
                                       text.substr(0, line_end), "fuzz.key"));
    return 0;
}
