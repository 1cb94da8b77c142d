total = 0
checksum = 0
for i in range(300000):
    line = f"item {i}: {i * 3} units"
    row = "<" + line + "|" + str(i) + ">"
    padded = row + " " + line
    total += len(padded)
    if i % 1000 == 0:
        checksum += len(padded) * i % 7
word = ""
for j in range(20000):
    word += "ab"
    if len(word) > 64:
        word = ""
print(total, checksum, len(word))
