"""Issue #26: the team competition's foreign keys to clubs and players point at the registry app's
models, in Django's record only (the columns and their constraints stay as they are); before
``tournaments`` forgets its own models (``run_before``)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("teams", "0002_team_match_history"),
        ("registry", "0001_initial"),
    ]

    run_before = [
        ("tournaments", "0010_registry_moved"),
    ]

    state_operations = [
        migrations.AlterField(
            model_name="team",
            name="club",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="teams", to="registry.club", verbose_name="kerho"),
        ),
        migrations.AlterField(
            model_name="team",
            name="substitute",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="registry.player", verbose_name="varamies"),
        ),
        migrations.AlterField(
            model_name="teamorder",
            name="substitute",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="registry.player"),
        ),
        migrations.AlterField(
            model_name="teamorder",
            name="substitute_for",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="registry.player"),
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations, database_operations=[]),
    ]
