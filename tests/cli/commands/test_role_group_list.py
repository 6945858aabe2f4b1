"""`flagtui role list` and `group list`: the ids `access grant` takes, as the server lists them;
a grant made with them lands (checked at the sandbox)."""

from __future__ import annotations


def test_role_list_gives_the_ids_a_grant_takes(run, server):
    roles = run("role", "list", "-o", "json")
    assert roles.code == 0, roles.err
    by_name = {role["name"]: role for role in roles.json}
    assert by_name["Owner"]["type"] == "project"
    assert {role["id"] for role in roles.json} == {
        role["id"] for role in server.get("/api/admin/roles").json()["roles"]
    }
    groups = run("group", "list", "-o", "json")
    assert groups.code == 0, groups.err
    group = groups.json[0]
    member = by_name["Member"]["id"]
    granted = run(
        "access", "grant", "default", "--role", str(member), "--group", str(group["id"]),
        "-o", "json",
    )  # fmt: skip
    assert granted.code == 0, granted.err
    access = server.get("/api/admin/projects/default/access").json()
    assert any(g["id"] == group["id"] and member in g.get("roles", [g.get("roleId")])
               for g in access["groups"])  # fmt: skip


def test_role_list_as_a_table_names_each_role(run):
    table = run("role", "list", "-o", "table")
    assert table.code == 0, table.err
    assert table.out.splitlines()[0].split() == ["id", "type", "name", "description"]
    assert any(line.split()[2:3] == ["Owner"] for line in table.out.splitlines()[1:])
