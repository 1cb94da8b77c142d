from dataclasses import dataclass


@dataclass
class Address:
    city: str
    zip: int


@dataclass
class User:
    id: int
    name: str
    tags: list
    scores: dict
    address: Address


cities = ["Lima", "Oslo", "Pune", "Kyiv", "Quito"]
records = []
for i in range(60000):
    u = User(
        id=i,
        name=f"user{i}",
        tags=[f"t{i % 7}", f"t{i % 11}"],
        scores={"math": i % 97, "art": i % 89, "sport": i % 83},
        address=Address(city=cities[i % 5], zip=10000 + i % 900),
    )
    records.append({"owner": u, "editor": u})
total = 0
by_city = {}
tag_hits = 0
for rec in records:
    for role, user in rec.items():
        for subject, s in user.scores.items():
            total += s
        if role == "owner":
            c = user.address.city
            if c in by_city:
                by_city[c] += 1
            else:
                by_city[c] = 1
            if "t3" in user.tags:
                tag_hits += 1
print(total, by_city["Oslo"], tag_hits, records[59999]["owner"].name)
