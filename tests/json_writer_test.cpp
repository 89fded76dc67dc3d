// serve/json_writer.hpp writes the answers of `egdb serve` without nlohmann; these tests hold it
// to nlohmann's compact dump byte for byte, and to refusing a text that would not be JSON.
#include "serve/json_writer.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

#include "core/workflow/probe_report.hpp"
#include "serve/report_json.hpp"

namespace egdb {
namespace {

using Json = nlohmann::ordered_json;

TEST(JsonWriter, WritesWhatNlohmannDumpsForTheSameObject) {
    // Every byte below 0x80 that needs escaping, and the others as they are.
    std::string every_ascii;
    for (int c = 1; c < 0x80; ++c) every_ascii.push_back(static_cast<char>(c));
    serve::JsonWriter w;
    w.begin_object()
        .key("text").string(every_ascii)
        .key("empty").string("")
        .key("numbers").begin_array().number(0).number(-7).number(1LL << 40).number_or_null(std::nullopt).number_or_null(254).end_array()
        .key("flags").begin_array().boolean(true).boolean(false).end_array()
        .key("nothing").null()
        .key("nested").begin_object().key("a").begin_array().begin_object().end_object().begin_array().end_array().end_array().end_object()
        .end_object();
    const std::string text = w.take();
    const Json expected = {{"text", every_ascii},
                           {"empty", ""},
                           {"numbers", {0, -7, 1LL << 40, nullptr, 254}},
                           {"flags", {true, false}},
                           {"nothing", nullptr},
                           {"nested", {{"a", Json::array({Json::object(), Json::array()})}}}};
    EXPECT_EQ(text, expected.dump());
    EXPECT_EQ(Json::parse(text), expected);
}

TEST(JsonWriter, BytesAboveAsciiBecomeTheReplacementCharacter) {
    serve::JsonWriter w;
    w.string("a\xc3\xa9z\xff");
    const std::string text = w.take();
    EXPECT_EQ(text, "\"a\\ufffd\\ufffdz\\ufffd\"");
    EXPECT_EQ(Json::parse(text).get<std::string>(), "a\xef\xbf\xbd\xef\xbf\xbdz\xef\xbf\xbd");
}

TEST(JsonWriter, RefusesWhatWouldNotBeJson) {
    {
        serve::JsonWriter w;
        w.begin_object();
        EXPECT_THROW(w.string("value without a key"), std::logic_error);
        EXPECT_THROW(w.end_array(), std::logic_error);
        EXPECT_THROW(w.take(), std::logic_error);  // still open
        w.key("k");
        EXPECT_THROW(w.key("second key"), std::logic_error);
        EXPECT_THROW(w.end_object(), std::logic_error);  // the key has no value
        w.number(1).end_object();
        EXPECT_THROW(w.number(2), std::logic_error);  // a second top-level value
        EXPECT_EQ(w.take(), "{\"k\":1}");
    }
    {
        serve::JsonWriter w;
        w.begin_array();
        EXPECT_THROW(w.key("in an array"), std::logic_error);
        EXPECT_THROW(w.end_object(), std::logic_error);
        for (std::size_t d = 1; d < serve::JsonWriter::kMaxDepth; ++d) w.begin_array();
        EXPECT_THROW(w.begin_array(), std::logic_error);
    }
    serve::JsonWriter w;
    EXPECT_THROW(w.end_object(), std::logic_error);
}

// The report texts are the objects report_json.hpp documents, in that key order.
TEST(ReportJson, TablebaseAndMainlineTextsHaveTheDocumentedShape) {
    workflow::TablebaseReport report{.fen = "W:W28:B8", .hub = "Wxx", .value = {workflow::Category::Win, 5, 3}};
    report.moves.push_back({.pdn = "28-22", .hub = "28-22", .fen_after = "B:W22:B8", .capture = false,
                            .after = {workflow::Category::Loss, 4, std::nullopt}});
    report.moves.push_back({.pdn = "28x17", .hub = "28x17x", .fen_after = "B:W17:B8", .capture = true,
                            .after = {workflow::Category::Unknown, std::nullopt, std::nullopt}});
    const Json expected = {{"category", "win"},
                           {"dtw_plies", 5},
                           {"mtc_plies", 3},
                           {"fen", "W:W28:B8"},
                           {"hub", "Wxx"},
                           {"moves",
                            {{{"pdn", "28-22"}, {"hub", "28-22"}, {"fen", "B:W22:B8"}, {"category", "loss"}, {"dtw_plies", 4},
                              {"mtc_plies", nullptr}, {"capture", false}},
                             {{"pdn", "28x17"}, {"hub", "28x17x"}, {"fen", "B:W17:B8"}, {"category", "unknown"},
                              {"dtw_plies", nullptr}, {"mtc_plies", nullptr}, {"capture", true}}}}};
    EXPECT_EQ(serve::tablebase_json_text(report), expected.dump());

    workflow::MainlineReport line{.moves = {{.pdn = "28-22", .hub = "28-22", .fen_after = "B:W22:B8", .dtw_after = 4}},
                                  .winner = Color::White};
    EXPECT_EQ(serve::mainline_json_text(line),
              Json({{"mainline", {{{"pdn", "28-22"}, {"hub", "28-22"}, {"fen", "B:W22:B8"}, {"dtw_plies", 4}}}}, {"winner", "w"}}).dump());
    EXPECT_EQ(serve::mainline_json_text({}), R"({"mainline":[],"winner":null})");
}

}  // namespace
}  // namespace egdb
