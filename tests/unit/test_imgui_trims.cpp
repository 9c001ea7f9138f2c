// The small sscanf the web app links in place of libc's (src/program/imgui_trims.cpp): it must read
// what ImGui asks of it exactly as sscanf would, and stop where sscanf would stop.
#include <catch2/catch.hpp>

#include <cstdio>

extern "C" int __wrap_sscanf(const char* text, const char* format, ...);

TEST_CASE("imgui trims: sscanf") {
    SECTION("the OpenGL backend's GLSL version") {
        int version = 130;
        REQUIRE(__wrap_sscanf("#version 300 es", "#version %d", &version) == 1);
        REQUIRE(version == 300);
    }
    SECTION("a GL version string that does not start with digits reads nothing, as with libc") {
        int major = 7, minor = 7;
        const char* gl = "OpenGL ES 3.0 (WebGL 2.0 (OpenGL ES 3.0 Chromium))";
        REQUIRE(__wrap_sscanf(gl, "%d.%d", &major, &minor) == std::sscanf(gl, "%d.%d", &major, &minor));
        REQUIRE(__wrap_sscanf("3.2", "%d.%d", &major, &minor) == 2);
        REQUIRE(major == 3);
        REQUIRE(minor == 2);
    }
    SECTION("ini lines: signs, literals, hex with width, %n and %c agree with libc") {
        const char* cases[][2] = {{"Pos=-12,40", "Pos=%i,%i"},      {"Size=300,  200", "Size=%i,%i"},
                                  {"Collapsed=1", "Collapsed=%d"},   {"0x00C0FFEE,3", "0x%08X,%d"},
                                  {"Width=x", "Width=%d"},           {"Pos=5", "Size=%i,%i"}};
        for (const auto& c : cases) {
            int a = -1, b = -1, x = -1, y = -1;
            INFO(c[0] << " with " << c[1]);
            REQUIRE(__wrap_sscanf(c[0], c[1], &a, &b) == std::sscanf(c[0], c[1], &x, &y));
            REQUIRE(a == x);
            REQUIRE(b == y);
        }
        int n = -1, length = -1;
        char c = 0;
        REQUIRE(__wrap_sscanf("Sort=2^ rest", "Sort=%d%c%n", &n, &c, &length) == 2);
        REQUIRE(n == 2);
        REQUIRE(c == '^');
        REQUIRE(length == 7);
    }
    SECTION("floats are not read: it stops there, storing nothing more") {
        float f = 1.5f;
        int n = 0;
        REQUIRE(__wrap_sscanf("Column 3 Weight=0.5", "Column %d Weight=%f", &n, &f) == 1);
        REQUIRE(n == 3);
        REQUIRE(f == 1.5f);
    }
}
