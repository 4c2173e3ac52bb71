# expect error: 3:1: IndentationError: expected an indented block after 'for' statement on line 2
for i in range(3):
print(i)
