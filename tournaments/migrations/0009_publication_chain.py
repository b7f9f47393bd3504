"""Issue #24: the published records as a chain. Each names the digest of the record before it and keeps
the text it hashed. Existing records, in the order they were kept (by id), are linked: the first names
none, each later one the digest of the one before it; their ``record`` stays empty, their digest being
of the older record form, which ``verify_event`` still checks."""

from django.db import migrations, models


def link_records(apps, schema_editor):
    Publication = apps.get_model("tournaments", "Publication")
    previous: dict[int, str] = {}
    for row in Publication.objects.order_by("pk").only("pk", "event_id", "digest"):
        Publication.objects.filter(pk=row.pk).update(previous_digest=previous.get(row.event_id, ""))
        previous[row.event_id] = row.digest


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0008_handled_lines"),
    ]

    operations = [
        migrations.AddField(
            model_name="publication",
            name="previous_digest",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="publication",
            name="record",
            field=models.TextField(blank=True, default=""),
        ),
        migrations.RunPython(link_records, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="publication",
            constraint=models.UniqueConstraint(
                condition=models.Q(("record", ""), _negated=True), fields=("event", "previous_digest"),
                name="publication_chain_no_fork",
            ),
        ),
    ]
