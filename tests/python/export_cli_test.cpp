// `gradstep export` end to end: the built executable runs the LeNet5 sample to the end of its
// first training step and writes the graph. SPDX-License-Identifier: MIT
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

const std::filesystem::path kOut = std::filesystem::temp_directory_path() / "gradstep_export_cli_test";

int gradstep(const std::string& args)
{
    const std::string command = std::string("\"") + GRADSTEP_BINARY + "\" " + args + " >/dev/null 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string sample(const char* name)
{
    return std::string("\"") + GRADSTEP_SOURCE_DIR + "/samples/" + name + "\"";
}

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::size_t count(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("gradstep export writes the LeNet5 training step as svg with op labels and clusters")
{
    std::filesystem::create_directories(kOut);
    const auto svg = kOut / "step.svg";
    REQUIRE(gradstep("export " + sample("lenet5_digits.py") + " --quiet -o \"" + svg.string() + "\"") == 0);
    const std::string text = readFile(svg);
    CHECK(text.rfind("<?xml", 0) == 0);
    CHECK(text.find("<svg") != std::string::npos);
    CHECK(text.find("</svg>") != std::string::npos);
    CHECK(count(text, "<g ") == count(text, "</g>"));
    CHECK(count(text, ">Conv2D</text>") == 4); // conv1 and conv2, forward and backward
    CHECK(text.find(">MatMul</text>") != std::string::npos);
    CHECK(text.find(">Gradients</text>") != std::string::npos);
    CHECK(text.find(">Momentum</text>") != std::string::npos);
    CHECK(count(text, "class=\"cluster\"") > 10);
    CHECK(text.find("stroke-dasharray") != std::string::npos); // cross links
    std::filesystem::remove_all(kOut);
}

TEST_CASE("gradstep export writes dot text that dot itself lays out")
{
    std::filesystem::create_directories(kOut);
    const auto gv = kOut / "forward.dot";
    REQUIRE(gradstep("export " + sample("lenet5_digits.py") + " --quiet --graph forward -o \"" + gv.string() + "\"")
            == 0);
    const std::string text = readFile(gv);
    CHECK(text.rfind("digraph", 0) == 0);
    CHECK(text.find("Conv2D") != std::string::npos);
    CHECK(text.find("subgraph cluster_") != std::string::npos);
    CHECK(text.find("Gradients") == std::string::npos);
    const std::string check = "dot -Tsvg \"" + gv.string() + "\" -o \"" + (kOut / "check.svg").string() + "\" 2>&1";
    CHECK(std::system(check.c_str()) == 0);
    CHECK(readFile(kOut / "check.svg").find("Conv2D") != std::string::npos);
    std::filesystem::remove_all(kOut);
}

TEST_CASE("gradstep export collapses Cells and renders png and pdf")
{
    std::filesystem::create_directories(kOut);
    REQUIRE(gradstep("export " + sample("lenet5_digits.py") + " --quiet --collapse 1 -o \"" + (kOut / "s.png").string()
                     + "\"")
            == 0);
    CHECK(readFile(kOut / "s.png").substr(1, 3) == "PNG");
    REQUIRE(gradstep("export " + sample("lenet5_digits.py") + " --quiet --graph backward --format pdf -o \""
                     + (kOut / "b.out").string() + "\"")
            == 0);
    CHECK(readFile(kOut / "b.out").substr(0, 4) == "%PDF");
    std::filesystem::remove_all(kOut);
}

TEST_CASE("gradstep export reports bad usage and scripts without a step")
{
    CHECK(gradstep("export --help") == 0);
    CHECK(gradstep("export") == 2);
    CHECK(gradstep("export x.py") == 2);
    CHECK(gradstep("export x.py -o a.svg --graph sideways") == 2);
    CHECK(gradstep("export x.py -o a.svg --collapse -1") == 2);
    CHECK(gradstep("export " + sample("does_not_exist.py") + " -o /tmp/gradstep_never.svg") == 1);
    CHECK_FALSE(std::filesystem::exists("/tmp/gradstep_never.svg"));
}
