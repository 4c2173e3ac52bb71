# expect error: 4:1: IndentationError: expected an indented block after 'for' statement on line 3
for i in range(3):
print(i)
