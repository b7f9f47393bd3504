"""Issue #26: the cup's foreign keys to seasons and clubs point at the registry app's models, in Django's
record only (the columns and their constraints stay as they are); before ``tournaments`` forgets its
own models (``run_before``)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("cup", "0002_club_fines"),
        ("registry", "0001_initial"),
    ]

    run_before = [
        ("tournaments", "0010_registry_moved"),
    ]

    state_operations = [
        migrations.AlterField(
            model_name="clubfine",
            name="club",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="fines", to="registry.club", verbose_name="kerho"),
        ),
        migrations.AlterField(
            model_name="clubfine",
            name="season",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="club_fines", to="registry.season", verbose_name="kausi"),
        ),
        migrations.AlterField(
            model_name="seasoncupsettings",
            name="season",
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="cup_settings", to="registry.season", verbose_name="kausi"),
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations, database_operations=[]),
    ]
