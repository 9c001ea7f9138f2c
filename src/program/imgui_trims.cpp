// Pieces of Dear ImGui 1.86 that the page would download but never needs, replaced at link time
// (src/program/CMakeLists.txt wraps the symbols with --wrap; measured in docs/benchmark.md):
// - ImFontAtlas::AddFontDefault, the fallback when no font was added, carries ImGui's built-in
//   ProggyClean font (12 KB of data). ui::build_fonts always adds our own fonts before building,
//   and no frame is drawn before the font file has arrived (main.cpp).
// - sscanf. ImGui's callers read integers ("#version %d" in the OpenGL backend, ini lines) or
//   floats in widgets and .ini files we never use (io.IniFilename is null). libc's sscanf brings
//   the whole scanf engine with long-double float parsing (11 KB of code); this one reads the
//   integer conversions and stops, like sscanf at a mismatch, at anything else.
// - ImGui::TableSettingsInstallHandler, which registers the .ini handler of tables: the app has no
//   table and no .ini file, and the handler's functions (reading, writing, applying table
//   settings: 2 KB of code) are only reachable through it.
// - ImGui::LogRenderedText, which copies drawn text to ImGui's log (ImGui::LogToTTY and friends):
//   called only while a log is open, and the app never opens one.
// - ImGui::FindBestWindowPosForPopup, which places popups, menus and tooltips: the app opens none.
//   Only ImGui's own Ctrl+Tab window list would ask, and with one window that list (now at the
//   top left) has nothing to choose from. 1.7 KB with its helper.
#include <cctype>
#include <cstdarg>

// No ImGui include: the native unit tests compile this file too (tests/unit/test_imgui_trims.cpp).
struct ImFont;
struct ImFontAtlas;
struct ImFontConfig;

extern "C" ImFont* __wrap__ZN11ImFontAtlas14AddFontDefaultEPK12ImFontConfig(ImFontAtlas*, const ImFontConfig*) {
    return nullptr;
}

struct ImGuiContext;
extern "C" void __wrap__ZN5ImGui27TableSettingsInstallHandlerEP12ImGuiContext(ImGuiContext*) {}

struct ImVec2Layout { float x, y; };  // ImVec2's layout, so that the ABI is ImGui's own
struct ImGuiWindow;
extern "C" void __wrap__ZN5ImGui15LogRenderedTextEPK6ImVec2PKcS4_(const ImVec2Layout*, const char*, const char*) {}
extern "C" ImVec2Layout __wrap__ZN5ImGui25FindBestWindowPosForPopupEP11ImGuiWindow(ImGuiWindow*) { return {0, 0}; }

// %d %i %u %x %X (optional width), %c and %n; whitespace in the format skips any whitespace.
// Returns the number of conversions stored, as sscanf does.
extern "C" int __wrap_sscanf(const char* text, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const char* in = text;
    int stored = 0;
    for (const char* f = format; *f; ++f) {
        if (std::isspace(static_cast<unsigned char>(*f))) {
            while (std::isspace(static_cast<unsigned char>(*in))) ++in;
            continue;
        }
        if (*f != '%' || f[1] == '%') {
            if (*f == '%') ++f;
            if (*in != *f) break;
            ++in;
            continue;
        }
        ++f;
        int width = 0;
        while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
        if (*f == 'n') { *va_arg(args, int*) = static_cast<int>(in - text); continue; }
        if (*f == 'c') {
            if (!*in) break;
            *va_arg(args, char*) = *in++;
            ++stored;
            continue;
        }
        int base = *f == 'x' || *f == 'X' ? 16 : (*f == 'd' || *f == 'i' || *f == 'u') ? 10 : 0;
        if (base == 0) break;  // %f and the rest: not read here (see above)
        if (*f != 'x' && *f != 'X') while (std::isspace(static_cast<unsigned char>(*in))) ++in;
        const char* limit = width > 0 ? in + width : nullptr;
        bool negative = false;
        if ((*in == '-' || *in == '+') && base == 10) negative = *in++ == '-';
        unsigned long long value = 0;
        int digits = 0;
        for (; *in && (!limit || in < limit); ++in, ++digits) {
            char c = static_cast<char>(std::tolower(static_cast<unsigned char>(*in)));
            int digit = c >= '0' && c <= '9' ? c - '0' : (base == 16 && c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
            if (digit < 0) break;
            value = value * static_cast<unsigned>(base) + static_cast<unsigned>(digit);
        }
        if (digits == 0) break;
        long long signed_value = negative ? -static_cast<long long>(value) : static_cast<long long>(value);
        *va_arg(args, int*) = static_cast<int>(signed_value);
        ++stored;
    }
    va_end(args);
    return stored;
}
