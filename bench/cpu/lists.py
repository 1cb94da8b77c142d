seed = 12345
xs = []
for i in range(200000):
    seed = (seed * 1103515245 + 12345) % 2147483648
    xs.append(seed % 100000)
sorted_xs = sorted(xs)
evens = [x for x in xs if x % 2 == 0]
scaled = [x * 3 for x in evens]
total = 0
for x in scaled:
    total += x
groups = {}
for x in xs:
    groups.setdefault(x % 100, []).append(x)
biggest = 0
for k, g in groups.items():
    if len(g) > biggest:
        biggest = len(g)
counts = {}
for x in xs:
    k = x % 1000
    if k in counts:
        counts[k] += 1
    else:
        counts[k] = 1
print(sorted_xs[0], sorted_xs[100000], sorted_xs[-1], len(evens), total, len(groups), biggest, len(counts), counts[7])
