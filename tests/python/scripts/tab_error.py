# expect error: 4:1: TabError: inconsistent use of tabs and spaces in indentation
if True:
	x = 1
        y = 2
