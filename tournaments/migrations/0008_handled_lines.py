"""Issue #24: the client ids a match has handled, kept when their lines go (``HandledLine``). Every line
stored before has its id handled from the start."""

import django.db.models.deletion
from django.db import migrations, models


def handle_stored_lines(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    HandledLine = apps.get_model("tournaments", "HandledLine")
    batch = []
    for match_id, client_id in Entry.objects.exclude(client_id="").values_list("match_id", "client_id").iterator(
        chunk_size=2000
    ):
        batch.append(HandledLine(match_id=match_id, client_id=client_id))
        if len(batch) >= 2000:
            HandledLine.objects.bulk_create(batch)
            batch = []
    HandledLine.objects.bulk_create(batch)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0007_match_substitute"),
    ]

    operations = [
        migrations.CreateModel(
            name="HandledLine",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("client_id", models.CharField(max_length=40)),
                ("at", models.DateTimeField(auto_now_add=True)),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="handled_lines",
                        to="tournaments.match",
                    ),
                ),
            ],
            options={
                "ordering": ["match", "at", "pk"],
                "constraints": [
                    models.UniqueConstraint(fields=("match", "client_id"), name="handled_line_once_per_match"),
                    models.CheckConstraint(
                        condition=models.Q(("client_id", ""), _negated=True), name="handled_line_has_client_id"
                    ),
                ],
            },
        ),
        migrations.RunPython(handle_stored_lines, migrations.RunPython.noop),
    ]
