# A call whose parenthesis is never closed: Python reports the opening one.
# expect error: 3:6: SyntaxError: '(' was never closed
print(1,
