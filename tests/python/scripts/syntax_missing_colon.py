# A block statement without its colon.
# expect error: 4:9: SyntaxError: expected ':'
x = 1
if x > 0
    print(x)
