// Tests of the data pipeline (core/data/dataset.cpp, operations.cpp, pad.cpp, transforms.cpp, mnist.cpp).
// SPDX-License-Identifier: MIT
#include "data/mnist.h"
#include "data/pad.h"
#include "data/transforms.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace gradstep;
using namespace gradstep::data;

namespace {

Array int64s(const Shape& shape, std::int64_t first = 0)
{
    Array a(kInt64, shape);
    auto* v = reinterpret_cast<std::int64_t*>(a.bytes());
    for (std::int64_t i = 0; i < a.numel(); ++i)
        v[i] = first + i;
    return a;
}

/// Rows 0..n-1 with columns "x" (the index) and "y" (the index times 10, shape [2]).
DatasetPtr counting(std::int64_t n, bool shuffled = false)
{
    Array y(kInt64, Shape{n, 2});
    auto* v = reinterpret_cast<std::int64_t*>(y.bytes());
    for (std::int64_t i = 0; i < 2 * n; ++i)
        v[i] = (i / 2) * 10;
    auto table = std::make_shared<Table>(std::vector<Array>{int64s(Shape{n}), y});
    return randomAccess(table, {"x", "y"}, shuffled, std::nullopt);
}

/// Column `c` of every row of epoch `epoch`, flattened.
std::vector<double> column(const Dataset& dataset, std::size_t c, std::int64_t epoch = 0)
{
    std::vector<double> out;
    auto cursor = dataset.open(epoch);
    while (auto row = cursor->next())
        for (std::int64_t i = 0; i < (*row)[c].numel(); ++i)
            out.push_back((*row)[c].at(i));
    return out;
}

std::vector<double> range(int n)
{
    std::vector<double> out(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        out[static_cast<std::size_t>(i)] = i;
    return out;
}

void writeIdx(const std::filesystem::path& path, std::vector<unsigned char> header, int count, int itemBytes)
{
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < count * itemBytes; ++i)
        header.push_back(static_cast<unsigned char>((i * 7 + i / itemBytes) % 256));
    out.write(reinterpret_cast<const char*>(header.data()), static_cast<std::streamsize>(header.size()));
}

} // namespace

TEST_CASE("a table yields its rows in order, sliced along axis 0, and num_samples limits them")
{
    DatasetPtr d = counting(5);
    CHECK(d->columnNames() == std::vector<std::string>{"x", "y"});
    CHECK(column(*d, 0) == range(5));
    CHECK(column(*d, 1) == std::vector<double>{0, 0, 10, 10, 20, 20, 30, 30, 40, 40});
    auto table = std::make_shared<Table>(std::vector<Array>{int64s(Shape{5})});
    CHECK(datasetSize(*randomAccess(table, {"x"}, false, 3)) == 3);
    CHECK(column(*randomAccess(table, {"x"}, false, 3), 0) == range(3));
    CHECK_THROWS_WITH(Table({int64s(Shape{3}), int64s(Shape{4})}), Catch::Contains("column 1 has 4"));
}

TEST_CASE("shuffling is a permutation that repeats under one seed and changes with the seed and epoch")
{
    setSeed(7);
    DatasetPtr sampled = counting(50, true);
    DatasetPtr buffered = shuffle(counting(50), 10);
    for (const DatasetPtr& d : {sampled, buffered}) {
        const auto first = column(*d, 0);
        CHECK(first != range(50));
        auto sorted = first;
        std::sort(sorted.begin(), sorted.end());
        CHECK(sorted == range(50));
        CHECK(column(*d, 0) == first);
        CHECK(column(*d, 0, 1) != first);
        setSeed(8);
        CHECK(column(*d, 0) != first);
        setSeed(7);
    }
    clearSeed();
    CHECK_FALSE(seed().has_value());
}

TEST_CASE("batch stacks rows, keeps or drops the remainder, and names a ragged column")
{
    DatasetPtr kept = batch(counting(7), 3, false);
    DatasetPtr dropped = batch(counting(7), 3, true);
    CHECK(datasetSize(*kept) == 3);
    CHECK(datasetSize(*dropped) == 2);
    CHECK(kept->batchSize() == 3);
    auto cursor = kept->open(0);
    auto first = cursor->next();
    CHECK((*first)[1].shape() == Shape{3, 2});
    cursor->next();
    CHECK((*cursor->next())[0].shape() == Shape{1});
    CHECK_FALSE(cursor->next().has_value());
    CHECK(column(*dropped, 0) == range(6));

    struct Mixed : public RowSource {
        std::int64_t size() const override { return 2; }
        Row row(std::int64_t i) const override { return {int64s(Shape{i + 1, 2})}; }
    };
    DatasetPtr mixed = batch(randomAccess(std::make_shared<Mixed>(), {"image"}, false, std::nullopt), 2, false);
    CHECK_THROWS_AS(column(*mixed, 0), ValueError);
    CHECK_THROWS_WITH(column(*mixed, 0), Catch::Contains("column 'image'") && Catch::Contains("int64 [1, 2]")
                                             && Catch::Contains("int64 [2, 2]"));
}

TEST_CASE("repeat and take change the number of rows per epoch")
{
    CHECK(datasetSize(*repeat(counting(4), 3)) == 12);
    CHECK(column(*repeat(counting(2), 2), 0) == std::vector<double>{0, 1, 0, 1});
    CHECK(column(*take(counting(5), 2), 0) == range(2));
    CHECK(datasetSize(*take(counting(5), 9)) == 5);
    CHECK_THROWS_AS(batch(counting(2), 0, false), ValueError);
}

TEST_CASE("map applies transforms in order to the named columns and checks the names")
{
    DatasetPtr d = map(counting(3), {std::make_shared<Rescale>(0.5, 1.0), std::make_shared<TypeCast>(kInt32)}, {"y"},
                       {});
    auto row = d->open(0)->next();
    CHECK((*row)[1].type() == kInt32);
    CHECK((*row)[1].at(0) == 1.0);
    CHECK(column(*d, 1) == std::vector<double>{1, 1, 6, 6, 11, 11});
    CHECK(d->columnNames() == std::vector<std::string>{"x", "y"});
    DatasetPtr renamed = map(counting(3), {std::make_shared<TypeCast>(kFloat32)}, {}, {"x_float"});
    CHECK(renamed->columnNames() == std::vector<std::string>{"x_float", "y"});
    CHECK_THROWS_WITH(map(counting(3), {std::make_shared<Rescale>(1.0, 0.0)}, {"label"}, {}),
                      Catch::Contains("column 'label' does not exist") && Catch::Contains("'x', 'y'"));
}

TEST_CASE("TypeCast saturates floats into integer ranges and Rescale and HWC2CHW give exact values")
{
    Array floats(kFloat64, Shape{5});
    const double values[] = {-3.7, 300.0, 2.9, std::nan(""), 1e30};
    std::memcpy(floats.bytes(), values, sizeof values);
    const Array bytes = TypeCast(kUInt8).applyOne(floats);
    CHECK(bytes.at(0) == 0.0);
    CHECK(bytes.at(1) == 255.0);
    CHECK(bytes.at(2) == 2.0);
    CHECK(bytes.at(3) == 0.0);
    CHECK(bytes.at(4) == 255.0);
    const Array scaled = Rescale(1.0 / 255.0, -0.5).applyOne(bytes);
    CHECK(scaled.type() == kFloat32);
    CHECK(scaled.at(1) == Approx(0.5));
    const Array chw = HWC2CHW().applyOne(int64s(Shape{2, 3, 2}));
    CHECK(chw.shape() == Shape{2, 2, 3});
    for (int i = 0; i < 12; ++i) // (k, y, x) comes from (y, x, k)
        CHECK(chw.at(i) == ((i / 3) % 2 * 3 + i % 3) * 2 + i / 6);
    CHECK_THROWS_WITH(HWC2CHW().applyOne(int64s(Shape{4})), Catch::Contains("got int64 [4]"));
}

TEST_CASE("an MNIST directory reads as uint8 HWC images and uint32 labels, under either file naming")
{
    const auto dir = std::filesystem::temp_directory_path() / "gradstep_mnist_core_test";
    std::filesystem::create_directories(dir);
    writeIdx(dir / "train-images-idx3-ubyte", {0, 0, 8, 3, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 4}, 3, 8);
    writeIdx(dir / "train-labels-idx1-ubyte", {0, 0, 8, 1, 0, 0, 0, 3}, 3, 1);
    writeIdx(dir / "digits-test-images-idx3-ubyte", {0, 0, 8, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 4}, 1, 8);
    writeIdx(dir / "digits-test-labels-idx1-ubyte", {0, 0, 8, 1, 0, 0, 0, 1}, 1, 1);
    auto all = readMnist(dir.string(), "all");
    CHECK(all->size() == 4);
    const Row row = all->row(1);
    CHECK(row[0].type() == kUInt8);
    CHECK(row[0].shape() == Shape{2, 4, 1});
    CHECK(row[0].at(0) == (8 * 7 + 1) % 256);
    CHECK(row[1].type() == kUInt32);
    CHECK(row[1].at(0) == 8.0);
    CHECK(readMnist(dir.string(), "test")->size() == 1);
    std::filesystem::remove(dir / "train-labels-idx1-ubyte");
    CHECK_THROWS_WITH(readMnist(dir.string(), "train"), Catch::Contains(dir.string())
                                                             && Catch::Contains("train-labels-idx1-ubyte"));
    std::filesystem::remove_all(dir);
    CHECK_THROWS_WITH(readMnist(dir.string(), "train"), Catch::Contains("'" + dir.string() + "' is not a directory"));
    CHECK_THROWS_AS(readMnist(GRADSTEP_SOURCE_DIR "/samples/data", "valid"), ValueError);
}

TEST_CASE("the shipped digits read as 1,500 training and 297 test images of 32x32x1")
{
    auto train = readMnist(GRADSTEP_SOURCE_DIR "/samples/data", "train");
    CHECK(train->size() == 1500);
    CHECK(train->row(0)[0].shape() == Shape{32, 32, 1});
    for (int i = 0; i < 10; ++i)
        CHECK(train->row(i)[1].at(0) == i);
    CHECK(readMnist(GRADSTEP_SOURCE_DIR "/samples/data", "all")->size() == 1797);
}

TEST_CASE("string columns slice, batch and refuse numeric uses")
{
    const Array words(Shape{4}, {"a", "bb", "", "d\xC3\xA9"});
    auto table = std::make_shared<Table>(std::vector<Array>{words, int64s(Shape{4})});
    auto cursor = batch(randomAccess(table, {"w", "i"}, false, std::nullopt), 3, false)->open(0);
    const Row first = *cursor->next();
    CHECK(first[0].isString());
    CHECK(first[0].shape() == Shape{3});
    CHECK(first[0].strings() == std::vector<std::string>{"a", "bb", ""});
    CHECK((*cursor->next())[0].strings() == std::vector<std::string>{"d\xC3\xA9"});
    CHECK(words.slice(1).shape() == Shape{});
    CHECK(words.slice(1).strings() == std::vector<std::string>{"bb"});
    CHECK(words.type().name() == "str");
    CHECK_THROWS_AS(words.at(0), TypeError);
    CHECK_THROWS_AS(words.toTensor(), TypeError);
    CHECK_THROWS_WITH(TypeCast(kInt32).apply({words}), Catch::Contains("TypeCast") && Catch::Contains("string"));
    CHECK_THROWS_AS(Array(Shape{2}, {"only one"}), ValueError);
    CHECK(words.sameAs(Array(Shape{4}, {"a", "bb", "", "d\xC3\xA9"})));
    CHECK_FALSE(words.sameAs(Array(Shape{4}, {"a", "bb", "", "d"})));
}

TEST_CASE("padColumn pads and cuts numbers and strings to the spec's shape, the batch's longest for -1")
{
    Array a = int64s(Shape{1, 3}), b = int64s(Shape{2, 1}, 10);
    PadSpec spec;
    spec.shape = std::vector<std::int64_t>{-1, 2};
    spec.number = -1;
    const auto padded = padColumn({a, b}, spec, "ids");
    REQUIRE(padded.size() == 2);
    CHECK(padded[0].shape() == Shape{2, 2});
    std::vector<double> values;
    for (const Array& p : padded)
        for (std::int64_t i = 0; i < p.numel(); ++i)
            values.push_back(p.at(i));
    CHECK(values == std::vector<double>{0, 1, -1, -1, 10, -1, 11, -1});

    const Array w1(Shape{1}, {"a"}), w3(Shape{3}, {"x", "y", "z"});
    const auto words = padColumn({w1, w3}, PadSpec{}, "words");
    CHECK(words[0].strings() == std::vector<std::string>{"a", "", ""});
    CHECK(words[1].strings() == std::vector<std::string>{"x", "y", "z"});
    PadSpec numberForText;
    numberForText.number = 0;
    CHECK_THROWS_WITH(padColumn({w1}, numberForText, "words"), Catch::Contains("column 'words'"));
    CHECK_THROWS_AS(padColumn({a, int64s(Shape{3})}, PadSpec{}, "ids"), RuntimeError);

    struct Ragged : public RowSource {
        std::int64_t size() const override { return 3; }
        Row row(std::int64_t i) const override { return {int64s(Shape{i + 1})}; }
    };
    auto batches = paddedBatch(randomAccess(std::make_shared<Ragged>(), {"x"}, false, std::nullopt), 2, false, {});
    auto cursor = batches->open(0);
    CHECK((*cursor->next())[0].shape() == Shape{2, 2});
    CHECK((*cursor->next())[0].shape() == Shape{1, 3});
    CHECK_THROWS_AS(paddedBatch(batches, 2, false, {{"nope", PadSpec{}}}), ValueError);
}
