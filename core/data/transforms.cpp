// map and the built-in transforms. SPDX-License-Identifier: MIT
#include "data/transforms.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

namespace gradstep::data {

namespace {

template <class To, class From> To convertValue(From v)
{
    if constexpr (std::is_same_v<To, bool>) {
        return v != From(0);
    } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
        if (std::isnan(v))
            return To(0);
        if (v <= static_cast<From>(std::numeric_limits<To>::lowest()))
            return std::numeric_limits<To>::lowest();
        if (v >= static_cast<From>(std::numeric_limits<To>::max()))
            return std::numeric_limits<To>::max();
        return static_cast<To>(v);
    } else {
        return static_cast<To>(v);
    }
}

/// float16 has no C++ type here: widen it to float32 first.
Array widenHalf(const Array& input)
{
    if (input.type() != ElementType{'f', 2})
        return input;
    Array out(kFloat32, input.shape());
    auto* values = reinterpret_cast<float*>(out.bytes());
    for (std::int64_t i = 0; i < input.numel(); ++i)
        values[i] = static_cast<float>(input.at(i));
    return out;
}

class MapCursor : public Cursor {
public:
    MapCursor(std::unique_ptr<Cursor> input, std::vector<TransformPtr> operations, std::vector<std::size_t> inputs,
              std::size_t outputs, std::size_t insertAt)
        : m_input(std::move(input)), m_operations(std::move(operations)), m_inputs(std::move(inputs)), m_outputs(outputs),
          m_insertAt(insertAt)
    {
    }
    std::optional<Row> next() override
    {
        auto row = m_input->next();
        if (!row)
            return std::nullopt;
        Row values;
        for (std::size_t index : m_inputs)
            values.push_back((*row)[index]);
        for (const TransformPtr& op : m_operations)
            values = op->apply(std::move(values));
        if (values.size() != m_outputs)
            throw RuntimeError("Invalid columns, the number of columns returned in 'map' operations should match "
                               "the number of 'output_columns', but got the number of columns returned in 'map' "
                               "operations: " + std::to_string(values.size()) + ", the number of 'output_columns': "
                               + std::to_string(m_outputs) + ".");
        Row out;
        for (std::size_t c = 0; c < row->size(); ++c)
            if (std::find(m_inputs.begin(), m_inputs.end(), c) == m_inputs.end())
                out.push_back(std::move((*row)[c]));
        out.insert(out.begin() + static_cast<std::ptrdiff_t>(m_insertAt), std::make_move_iterator(values.begin()),
                   std::make_move_iterator(values.end()));
        return out;
    }

private:
    std::unique_ptr<Cursor> m_input;
    std::vector<TransformPtr> m_operations;
    std::vector<std::size_t> m_inputs;
    std::size_t m_outputs;
    std::size_t m_insertAt;
};

class MapDataset : public Dataset {
public:
    MapDataset(DatasetPtr input, std::vector<TransformPtr> operations, std::vector<std::string> inputColumns,
               std::vector<std::string> outputColumns)
        : m_input(std::move(input)), m_operations(std::move(operations))
    {
        const auto names = m_input->columnNames();
        if (inputColumns.empty() && !names.empty())
            inputColumns.push_back(names.front());
        for (const auto& name : inputColumns)
            m_inputs.push_back(columnIndex(names, name, "map: input_columns"));
        m_outputNames = outputColumns.empty() ? inputColumns : outputColumns;
        for (std::size_t c = 0; c < names.size(); ++c) {
            if (std::find(m_inputs.begin(), m_inputs.end(), c) != m_inputs.end())
                continue;
            if (c < m_inputs.front())
                ++m_insertAt;
            m_names.push_back(names[c]);
        }
        m_names.insert(m_names.begin() + static_cast<std::ptrdiff_t>(m_insertAt), m_outputNames.begin(),
                       m_outputNames.end());
    }
    std::vector<std::string> columnNames() const override { return m_names; }
    std::optional<std::int64_t> knownSize() const override { return m_input->knownSize(); }
    std::int64_t batchSize() const override { return m_input->batchSize(); }
    std::unique_ptr<Cursor> open(std::int64_t epoch) const override
    {
        return std::make_unique<MapCursor>(m_input->open(epoch), m_operations, m_inputs, m_outputNames.size(),
                                           m_insertAt);
    }

private:
    DatasetPtr m_input;
    std::vector<TransformPtr> m_operations;
    std::vector<std::size_t> m_inputs;
    std::vector<std::string> m_outputNames;
    std::vector<std::string> m_names;
    std::size_t m_insertAt = 0;
};

} // namespace

Row ArrayTransform::apply(Row inputs) const
{
    for (Array& array : inputs) {
        if (array.isString())
            throw TypeError(name() + ": the input is a string column, expected numbers");
        array = applyOne(array);
    }
    return inputs;
}

TypeCast::TypeCast(ElementType target) : m_target(target)
{
    if (!target.valid() || target == ElementType{'f', 2})
        throw ValueError("TypeCast: unsupported target type " + target.name());
}

Array TypeCast::applyOne(const Array& input) const
{
    const Array source = widenHalf(input);
    Array out(m_target, source.shape());
    visitElement(source.type(), [&](auto* fromTag) {
        using From = std::remove_pointer_t<decltype(fromTag)>;
        visitElement(m_target, [&](auto* toTag) {
            using To = std::remove_pointer_t<decltype(toTag)>;
            const auto* in = reinterpret_cast<const From*>(source.bytes());
            auto* result = reinterpret_cast<To*>(out.bytes());
            for (std::int64_t i = 0; i < source.numel(); ++i)
                result[i] = convertValue<To>(in[i]);
        });
    });
    return out;
}

Array Rescale::applyOne(const Array& input) const
{
    const Array source = widenHalf(input);
    Array out(kFloat32, source.shape());
    const auto scale = static_cast<float>(m_rescale), shift = static_cast<float>(m_shift);
    visitElement(source.type(), [&](auto* tag) {
        using From = std::remove_pointer_t<decltype(tag)>;
        const auto* in = reinterpret_cast<const From*>(source.bytes());
        auto* result = reinterpret_cast<float*>(out.bytes());
        for (std::int64_t i = 0; i < source.numel(); ++i)
            result[i] = static_cast<float>(in[i]) * scale + shift;
    });
    return out;
}

Array HWC2CHW::applyOne(const Array& input) const
{
    const Shape& shape = input.shape();
    if (shape.rank() == 2)
        return {input.type(), Shape{1, shape[0], shape[1]},
                std::vector<unsigned char>(input.bytes(), input.bytes() + input.nbytes())};
    if (shape.rank() != 3)
        throw ValueError("HWC2CHW: expected an image of shape (H, W, C) or (H, W), got " + describe(input));
    const std::int64_t h = shape[0], w = shape[1], c = shape[2];
    const auto item = static_cast<std::size_t>(input.type().size);
    Array out(input.type(), Shape{c, h, w});
    for (std::int64_t y = 0; y < h; ++y)
        for (std::int64_t x = 0; x < w; ++x)
            for (std::int64_t k = 0; k < c; ++k)
                std::memcpy(out.bytes() + static_cast<std::size_t>((k * h + y) * w + x) * item,
                            input.bytes() + static_cast<std::size_t>((y * w + x) * c + k) * item, item);
    return out;
}

DatasetPtr map(DatasetPtr input, std::vector<TransformPtr> operations, std::vector<std::string> inputColumns,
               std::vector<std::string> outputColumns)
{
    if (operations.empty())
        throw ValueError("map: operations must not be empty");
    return std::make_shared<MapDataset>(std::move(input), std::move(operations), std::move(inputColumns),
                                        std::move(outputColumns));
}

} // namespace gradstep::data
